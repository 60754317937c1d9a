package dev.ringzero.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ArgsTest {

    @Test
    void flagsTakeAValueTheNextWordOrNothing() {
        Args a = new Args(new String[] {"--rate", "300", "--label=s6-r1", "--jfr", "--warmup", "150"});
        assertThat(a.number("rate", 100)).isEqualTo(300);
        assertThat(a.text("label", "x")).isEqualTo("s6-r1");
        assertThat(a.flag("jfr")).isTrue();
        assertThat(a.integer("warmup", 30)).isEqualTo(150);
        assertThat(a.integer("seconds", 60)).isEqualTo(60);
        assertThat(a.flag("skip-build")).isFalse();
    }

    @Test
    void aStrayWordOrAMissingRequiredFlagIsAClearError() {
        assertThatThrownBy(() -> new Args(new String[] {"300"})).hasMessageContaining("expected --name value");
        assertThatThrownBy(() -> new Args(new String[0]).required("admin-password"))
                .hasMessageContaining("missing --admin-password");
    }
}
