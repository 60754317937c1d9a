package dev.ringzero.firmware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class LinkConfigTest {

    private final LinkConfig underTest = new LinkConfig("tcp://127.0.0.1:1883", "desk", "secret");

    @Test
    void theDevicesOwnConnectionUsesTheGadgetIdAsClientId() {
        assertEquals("desk", underTest.clientId());
    }

    @Test
    void aSecondConnectionAddsItsSuffixAfterADot() {
        // brokers refuse desk-dbg: it could be the client id of another gadget, "desk-dbg"
        assertEquals("desk.dbg", underTest.withSuffix("dbg").clientId());
    }

    @Test
    void aBlankSuffixIsTheDevicesOwnConnection() {
        assertEquals("desk", underTest.withSuffix(" ").clientId());
    }

    @Test
    void theCredentialIsNeverPrinted() {
        assertFalse(underTest.withSuffix("dbg").toString().contains("secret"));
    }
}
