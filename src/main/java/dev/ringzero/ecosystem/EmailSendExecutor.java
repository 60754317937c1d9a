package dev.ringzero.ecosystem;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ringzero.StoredJson;
import dev.ringzero.gates.Attempts;
import dev.ringzero.gates.Execution;
import dev.ringzero.gates.Gate;
import dev.ringzero.gates.IntentExecutor;
import dev.ringzero.Refusal;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.JavaMailSenderImpl;
import org.springframework.stereotype.Component;

/**
 * {@code email.send {to: [..], subject, body}} over SMTP with Spring Mail ({@code spring.mail.*}).
 * The Message-ID is derived from the gate id ({@code <gate-ID@domain>}), so a receiving system can
 * recognise a duplicate too, and the pre-send record is committed before the SMTP conversation
 * starts: a crash mid-send ends the gate {@code failed} with outcome {@code unknown}, never a
 * second email. Without {@code spring.mail.host} there is no mail sender and the gate fails with
 * {@code email_not_configured}.
 */
@Component
class EmailSendExecutor implements IntentExecutor {

    static final String INTENT = "email.send";
    private static final int MAX_RECIPIENTS = 50;

    private final ObjectProvider<JavaMailSender> senders;
    private final Attempts attempts;
    private final ObjectMapper json;
    private final String from;
    private final String messageIdDomain;

    EmailSendExecutor(ObjectProvider<JavaMailSender> senders, Attempts attempts, ObjectMapper json,
            @Value("${ringzero.email.from:ringzero@localhost}") String from,
            @Value("${ringzero.email.message-id-domain:ringzero.local}") String messageIdDomain) {
        this.senders = senders;
        this.attempts = attempts;
        this.json = json;
        this.from = from;
        this.messageIdDomain = messageIdDomain;
    }

    @Override
    public boolean handles(String intent) {
        return INTENT.equals(intent);
    }

    @Override
    public void validate(String ownerId, String intent, JsonNode payload) {
        recipients(payload.path("to"));
        JsonNode subject = payload.path("subject");
        if (!subject.isTextual() || subject.asText().length() > 998 || subject.asText().matches("(?s).*[\\r\\n].*")) {
            throw Refusal.invalid("invalid-payload", "email.send needs a one-line subject of at most 998 "
                    + "characters");
        }
        JsonNode body = payload.path("body");
        if (!body.isTextual() || body.asText().length() > 100_000) {
            throw Refusal.invalid("invalid-payload", "email.send needs a text body of at most 100000 characters");
        }
    }

    @Override
    public Execution execute(Gate gate) {
        JavaMailSender sender = senders.getIfAvailable();
        if (sender == null) {
            Execution earlier = attempts.reconcile(gate);
            return earlier instanceof Execution.NotStarted
                    ? new Execution.Failed(StoredJson.write(json, Map.of("outcome", "failed",
                            "error", "email_not_configured",
                            "message", "email is not configured on this platform (spring.mail.host is not set)")))
                    : earlier;
        }
        String messageId = messageId(gate);
        return attempts.external(gate, "smtp", messageId, () -> {
            JsonNode payload = json.readTree(gate.payload());
            List<InternetAddress> to = recipients(payload.path("to"));
            Session session = sender instanceof JavaMailSenderImpl impl ? impl.getSession()
                    : Session.getInstance(new Properties());
            MimeMessage message = new FixedIdMessage(session, messageId);
            message.setFrom(new InternetAddress(from));
            message.setRecipients(Message.RecipientType.TO, to.toArray(new InternetAddress[0]));
            message.setSubject(payload.path("subject").asText(), StandardCharsets.UTF_8.name());
            message.setText(payload.path("body").asText(), StandardCharsets.UTF_8.name());
            message.setHeader("X-RingZero-Gate", gate.id());
            sender.send(message);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("outcome", "completed");
            result.put("messageId", messageId);
            result.put("to", to.stream().map(InternetAddress::getAddress).toList());
            return StoredJson.write(json, result);
        });
    }

    @Override
    public Execution reconcile(Gate gate) {
        return attempts.reconcile(gate);
    }

    String messageId(Gate gate) {
        return "<gate-" + gate.id() + "@" + messageIdDomain + ">";
    }

    /** One bare address per element: no display names, no lists hidden in one string. */
    private static List<InternetAddress> recipients(JsonNode to) {
        List<JsonNode> items = new ArrayList<>();
        if (to.isTextual()) {
            items.add(to);
        } else if (to.isArray()) {
            to.forEach(items::add);
        }
        if (items.isEmpty() || items.size() > MAX_RECIPIENTS) {
            throw Refusal.invalid("invalid-payload", "email.send needs 'to': 1 to " + MAX_RECIPIENTS
                    + " addresses");
        }
        List<InternetAddress> addresses = new ArrayList<>();
        for (JsonNode item : items) {
            String text = item.isTextual() ? item.asText().trim() : "";
            try {
                InternetAddress address = new InternetAddress(text, true);
                address.validate();
                if (!address.getAddress().equals(text) || address.getPersonal() != null) {
                    throw new AddressException("not a bare address");
                }
                addresses.add(address);
            } catch (AddressException e) {
                throw Refusal.invalid("invalid-payload", "'" + text + "' is not one plain email address");
            }
        }
        return addresses;
    }

    /** A message whose Message-ID is ours, not the one JavaMail would invent on saveChanges(). */
    private static final class FixedIdMessage extends MimeMessage {

        private final String messageId;

        FixedIdMessage(Session session, String messageId) {
            super(session);
            this.messageId = messageId;
        }

        @Override
        protected void updateMessageID() throws MessagingException {
            setHeader("Message-ID", messageId);
        }
    }
}
