package dev.ringzero.firmware;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocketFactory;

/**
 * Turns Nagle's algorithm off on every socket Paho opens. With Nagle on, a board
 * answering a few messages a second waits for delayed ACKs and a round trip costs
 * ~20 ms instead of ~2 ms (PERFORMANCE.md, floor A). Paho has no switch for it;
 * it only accepts a {@link SocketFactory}.
 */
public final class NoDelaySocketFactory extends SocketFactory {

    private final SocketFactory delegate;

    private NoDelaySocketFactory(SocketFactory delegate) {
        this.delegate = delegate;
    }

    /**
     * Paho refuses a plain factory for {@code ssl://} URLs and an SSL factory for
     * {@code tcp://} ones, so pick the matching wrapper.
     */
    public static SocketFactory forUrl(String brokerUrl) {
        if (brokerUrl.startsWith("ssl://")) {
            return new Ssl((SSLSocketFactory) SSLSocketFactory.getDefault());
        }
        return new NoDelaySocketFactory(SocketFactory.getDefault());
    }

    private static Socket noDelay(Socket socket) throws SocketException {
        socket.setTcpNoDelay(true);
        return socket;
    }

    // Paho calls the no-argument form and connects the socket itself.
    @Override
    public Socket createSocket() throws IOException {
        return noDelay(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return noDelay(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return noDelay(delegate.createSocket(address, port, localAddress, localPort));
    }

    /** The same for TLS links. */
    static final class Ssl extends SSLSocketFactory {
        private final SSLSocketFactory delegate;

        Ssl(SSLSocketFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public String[] getDefaultCipherSuites() {
            return delegate.getDefaultCipherSuites();
        }

        @Override
        public String[] getSupportedCipherSuites() {
            return delegate.getSupportedCipherSuites();
        }

        @Override
        public Socket createSocket() throws IOException {
            return noDelay(delegate.createSocket());
        }

        @Override
        public Socket createSocket(Socket s, String host, int port, boolean autoClose) throws IOException {
            return noDelay(delegate.createSocket(s, host, port, autoClose));
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return noDelay(delegate.createSocket(host, port));
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return noDelay(delegate.createSocket(host, port, localHost, localPort));
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return noDelay(delegate.createSocket(host, port));
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return noDelay(delegate.createSocket(address, port, localAddress, localPort));
        }
    }
}
