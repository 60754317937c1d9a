package dev.ringzero.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    @ParameterizedTest
    @CsvSource({
        "*, '', true", "*, anything, true", "'', '', true", "'', x, false",
        "a?c, abc, true", "a?c, ac, false", "a?c, abbc, false",
        "*@ourco.com, ann@ourco.com, true", "*@ourco.com, ann@ourco.com.evil.org, false",
        "*.*, a.b, true", "a*b*c, aXXbYYc, true", "a*b*c, aXXbYY, false", "**, x, true",
        "speaker.*, speaker.say, true", "speaker.*, speakers.say, false", "*x, xxxxxxxxxxxxxxxxxxy, false"})
    void starMatchesAnyRunAndQuestionMarkExactlyOneCharacter(String glob, String text, boolean expected) {
        assertThat(Glob.matches(glob, text, false)).isEqualTo(expected);
    }

    @Test
    void matchingIsCaseSensitiveUnlessAskedOtherwise() {
        assertThat(Glob.matches("*@OurCo.com", "ann@ourco.COM", false)).isFalse();
        assertThat(Glob.matches("*@OurCo.com", "ann@ourco.COM", true)).isTrue();
    }

    @Test
    void aPathologicalPatternStaysFast() {
        String text = "a".repeat(10_000);

        assertThat(Glob.matches("*a*a*a*a*a*a*a*a*b", text, false)).isFalse();
    }
}
