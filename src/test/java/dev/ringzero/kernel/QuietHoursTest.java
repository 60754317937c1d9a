package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class QuietHoursTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Instant berlin(String localDateTime) {
        return LocalDateTime.parse(localDateTime).atZone(BERLIN).toInstant();
    }

    @ParameterizedTest
    @CsvSource({
        "2025-06-02T21:59:59, false", "2025-06-02T22:00:00, true", "2025-06-02T23:30:00, true",
        "2025-06-03T00:00:00, true", "2025-06-03T03:15:00, true", "2025-06-03T06:59:59, true",
        "2025-06-03T07:00:00, false", "2025-06-03T12:00:00, false"})
    void aWindowCrossingMidnightCoversTheLateEveningAndTheEarlyMorning(String local, boolean quiet) {
        QuietHours underTest = new QuietHours(LocalTime.of(22, 0), LocalTime.of(7, 0), BERLIN);

        assertThat(underTest.contains(berlin(local))).isEqualTo(quiet);
    }

    @ParameterizedTest
    @CsvSource({"2025-06-02T12:59:59, false", "2025-06-02T13:00:00, true", "2025-06-02T14:59:59, true",
        "2025-06-02T15:00:00, false", "2025-06-02T23:00:00, false"})
    void aDaytimeWindowIsHalfOpen(String local, boolean quiet) {
        QuietHours underTest = new QuietHours(LocalTime.of(13, 0), LocalTime.of(15, 0), BERLIN);

        assertThat(underTest.contains(berlin(local))).isEqualTo(quiet);
    }

    @Test
    void theWindowIsReadInTheGadgetsZone() {
        QuietHours underTest = new QuietHours(LocalTime.of(22, 0), LocalTime.of(7, 0), ZoneId.of("America/New_York"));
        Instant midnightInBerlin = berlin("2025-06-03T00:00:00"); // 18:00 in New York

        assertThat(underTest.contains(midnightInBerlin)).isFalse();
    }

    @Test
    void theNightTheClocksGoBackIsStillQuiet() {
        QuietHours underTest = new QuietHours(LocalTime.of(22, 0), LocalTime.of(7, 0), BERLIN);

        assertThat(underTest.contains(Instant.parse("2025-10-26T00:30:00Z"))).isTrue(); // 02:30 CEST
        assertThat(underTest.contains(Instant.parse("2025-10-26T01:30:00Z"))).isTrue(); // 02:30 CET
        assertThat(underTest.contains(Instant.parse("2025-10-26T06:00:00Z"))).isFalse(); // 07:00 CET
    }

    @Test
    void aWindowWithoutLengthIsRejected() {
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> new QuietHours(LocalTime.of(22, 0), LocalTime.of(22, 0), BERLIN));
    }
}
