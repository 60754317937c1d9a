package dev.ringzero.firmware;

import org.eclipse.paho.client.mqttv3.MqttException;

/**
 * The board could not bring its link up. Unchecked so tests can write
 * {@code assertThrows(BoardLinkException.class, board::start)} and then ask why.
 */
public class BoardLinkException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int reasonCode;

    BoardLinkException(String message, Throwable cause) {
        super(message, cause);
        this.reasonCode = cause instanceof MqttException e ? e.getReasonCode() : -1;
    }

    /** Paho's reason code (e.g. 4 bad user name or password, 5 not authorized), -1 if none. */
    public int reasonCode() {
        return reasonCode;
    }

    /** The broker refused the credential or the client id (CONNACK 4 or 5). */
    public boolean isAuthFailure() {
        return reasonCode == MqttException.REASON_CODE_FAILED_AUTHENTICATION
                || reasonCode == MqttException.REASON_CODE_NOT_AUTHORIZED
                || reasonCode == MqttException.REASON_CODE_INVALID_CLIENT_ID;
    }
}
