package dev.ringzero.support;

import java.util.Arrays;
import java.util.List;

import com.icegreen.greenmail.util.GreenMail;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;

/** The mails an {@code email.send} gate sent, as the test's SMTP server (GreenMail) received them. */
public final class GateMails {

    private GateMails() {
    }

    /** The Message-ID the platform gives a gate's mail, so a retried send is recognisable. */
    public static String messageId(String gateId) {
        return "<gate-" + gateId + "@ringzero.local>";
    }

    /** Every mail {@code smtp} received for the gate. */
    public static List<MimeMessage> sentFor(GreenMail smtp, String gateId) {
        String messageId = messageId(gateId);
        return Arrays.stream(smtp.getReceivedMessages()).filter(message -> {
            try {
                return messageId.equals(message.getMessageID());
            } catch (MessagingException e) {
                return false;
            }
        }).toList();
    }
}
