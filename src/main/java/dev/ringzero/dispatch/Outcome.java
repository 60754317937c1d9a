package dev.ringzero.dispatch;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What became of one command sent to a device. {@code accepted} (the device only started it,
 * e.g. {@code speaker.say → fetching}) is reported apart from {@code completed}; {@code unknown}
 * (no answer by the deadline) is never retried automatically.
 */
public sealed interface Outcome {

    /** The outcome code for records and APIs. */
    String status();

    /** The invocation id, or null when nothing was sent. */
    String invocationId();

    record Completed(String invocationId, JsonNode payload) implements Outcome {
        @Override
        public String status() {
            return "completed";
        }
    }

    record Accepted(String invocationId, JsonNode payload) implements Outcome {
        @Override
        public String status() {
            return "accepted";
        }
    }

    record Failed(String invocationId, String errorCode, String message) implements Outcome {
        @Override
        public String status() {
            return "failed";
        }
    }

    record Unknown(String invocationId) implements Outcome {
        @Override
        public String status() {
            return "unknown";
        }
    }

    /** The gadget was offline: nothing was sent (fail fast). */
    record Offline() implements Outcome {
        @Override
        public String status() {
            return "offline";
        }

        @Override
        public String invocationId() {
            return null;
        }
    }

    /** The kernel refused: nothing was sent. {@code reason} is its stable code. */
    record Denied(String reason, String detail) implements Outcome {
        @Override
        public String status() {
            return "denied";
        }

        @Override
        public String invocationId() {
            return null;
        }
    }
}
