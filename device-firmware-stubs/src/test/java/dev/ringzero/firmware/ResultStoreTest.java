package dev.ringzero.firmware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ResultStoreTest {

    private final ResultStore underTest = new ResultStore(3);

    @Test
    void firstClaimOfAnIdExecutes() {
        assertInstanceOf(ResultStore.Execute.class, underTest.claim("a"));
    }

    @Test
    void repeatWhileRunningIsInFlightAndDoesNotExecute() {
        underTest.claim("a");

        assertInstanceOf(ResultStore.InFlight.class, underTest.claim("a"));
    }

    @Test
    void repeatAfterCompletionReturnsTheStoredOutcome() {
        underTest.claim("a");
        CommandOutcome outcome = CommandOutcome.ok(Map.of("status", "shown"));
        underTest.complete("a", outcome);

        ResultStore.Claim again = underTest.claim("a");

        assertEquals(new ResultStore.Stored(outcome), again);
    }

    @Test
    void oldestIdsAreForgottenBeyondCapacity() {
        for (String id : new String[] {"a", "b", "c", "d"}) {
            underTest.claim(id);
            underTest.complete(id, CommandOutcome.ok(Map.of()));
        }

        assertEquals(3, underTest.size());
        assertTrue(underTest.stored("a").isEmpty());
        assertInstanceOf(ResultStore.Stored.class, underTest.claim("d"));
    }
}
