package dev.ringzero.web;

import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ringzero.Refusal;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.RequestBodyAdviceAdapter;

/**
 * Every text a request body carries (values and keys alike) is text a person or a device can
 * show: no control characters but tab, newline and carriage return, and no half of a surrogate
 * pair. Either would be stored and later break a reader (PostgreSQL refuses NUL; a lone surrogate
 * makes the listing that contains it unreadable to strict JSON parsers).
 */
@ControllerAdvice
class TextHygiene extends RequestBodyAdviceAdapter {

    @Override
    public boolean supports(MethodParameter parameter, Type targetType,
            Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public Object afterBodyRead(Object body, HttpInputMessage inputMessage, MethodParameter parameter, Type targetType,
            Class<? extends HttpMessageConverter<?>> converterType) {
        check(body, "");
        return body;
    }

    static void check(Object value, String path) {
        if (value instanceof String text) {
            checkText(text, path);
        } else if (value instanceof JsonNode node) {
            checkNode(node, path);
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> {
                check(key, path);
                check(item, path + "/" + key);
            });
        } else if (value instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                check(item, path + "/" + i++);
            }
        } else if (value != null && value.getClass().isRecord()) {
            for (RecordComponent component : value.getClass().getRecordComponents()) {
                try {
                    component.getAccessor().setAccessible(true);
                    check(component.getAccessor().invoke(value), path + "/" + component.getName());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    private static void checkNode(JsonNode node, String path) {
        if (node.isTextual()) {
            checkText(node.textValue(), path);
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                checkText(field.getKey(), path);
                checkNode(field.getValue(), path + "/" + field.getKey());
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                checkNode(node.get(i), path + "/" + i);
            }
        }
    }

    private static void checkText(String text, String path) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f;
            boolean loneSurrogate = Character.isHighSurrogate(c)
                    ? i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(++i))
                    : Character.isLowSurrogate(c);
            if (control || loneSurrogate) {
                throw Refusal.invalid("invalid-text", "the text at '" + (path.isEmpty() ? "/" : path) + "' holds "
                        + (control ? "a control character" : "half of a surrogate pair") + String.format(
                        " (U+%04X at %d); only printable text, tabs and line breaks are accepted", (int) c, i));
            }
        }
    }
}
