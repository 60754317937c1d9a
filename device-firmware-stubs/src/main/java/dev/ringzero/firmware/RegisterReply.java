package dev.ringzero.firmware;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The platform's answer to {@code link.register}:
 * {@code {"type":"res","id":..,"ok":true,"result":{"status":"registered"}}} or
 * {@code ok:false} with {@code error:{code,message}}.
 */
public record RegisterReply(String id, boolean ok, Map<String, Object> result, String errorCode,
                            String errorMessage, Instant receivedAt) {

    public RegisterReply {
        result = Collections.unmodifiableMap(new LinkedHashMap<>(result));
    }
}
