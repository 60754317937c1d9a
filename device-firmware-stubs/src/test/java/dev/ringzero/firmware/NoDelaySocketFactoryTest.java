package dev.ringzero.firmware;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.Test;

class NoDelaySocketFactoryTest {

    @Test
    void socketsForTcpLinksHaveNagleSwitchedOff() throws Exception {
        try (Socket socket = NoDelaySocketFactory.forUrl("tcp://127.0.0.1:1883").createSocket()) {
            assertTrue(socket.getTcpNoDelay());
        }
    }

    @Test
    void sslLinksGetAnSslFactoryBecausePahoRefusesAPlainOneForThem() throws Exception {
        assertInstanceOf(SSLSocketFactory.class, NoDelaySocketFactory.forUrl("ssl://example.org:8883"));
        assertFalse(NoDelaySocketFactory.forUrl("tcp://example.org:1883") instanceof SSLSocketFactory);
        try (Socket socket = NoDelaySocketFactory.forUrl("ssl://example.org:8883").createSocket()) {
            assertTrue(socket.getTcpNoDelay());
        }
    }
}
