package dev.ringzero.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/** TCP_NODELAY on the floor clients' sockets, as the firmware stubs and the platform set it (PERFORMANCE.md). */
final class NoDelaySocketFactory extends SocketFactory {

    private final SocketFactory delegate = SocketFactory.getDefault();

    private static Socket noDelay(Socket s) throws IOException {
        s.setTcpNoDelay(true);
        return s;
    }

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
}
