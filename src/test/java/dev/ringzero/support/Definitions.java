package dev.ringzero.support;

/** Gadget-agent definitions used across tests, as the JSON a client would send. */
public final class Definitions {

    private Definitions() {
    }

    /** "When shaken hard, play the bark" for one desk bot. */
    public static String barkWhenShakenHard(String gadget, String extra) {
        return """
                {"apiVersion":"ringzero/v1","name":"Bark when shaken","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"shaken","when":{"data":{"strength":"hard"}}},
                             {"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"speaker.play_url",
                             "params":{"url":"https://example.org/bark.mp3?s={{event.data.strength}}","duration_ms":100}}],
                 "allow":{"commands":["speaker.play_url"],"physical":false}%2$s}
                """.formatted(gadget, extra == null ? "" : "," + extra);
    }

    /** Shows text on every shake (no filter), with the given budget and concurrency. */
    public static String showTextWhenShaken(String gadget, String budget, String concurrency) {
        return """
                {"apiVersion":"ringzero/v1","name":"Show text","gadgets":["%1$s"],"kind":"rules",
                 "triggers":[{"kind":"gadget.event","gadget":"%1$s","event":"shaken"},{"kind":"invoke"}],
                 "actions":[{"gadget":"%1$s","command":"display.show_text","params":{"text":"shaken {{event.data.strength}}"}}],
                 "allow":{"commands":["display.show_text"]},
                 "budget":%2$s,"concurrency":"%3$s"}
                """.formatted(gadget, budget, concurrency);
    }
}
