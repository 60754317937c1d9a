package dev.ringzero.support;

import dev.ringzero.firmware.DeskBot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The usual scene of an integration test: a fresh owner, Alice, with one paired and connected desk bot. */
public abstract class OwnerWithDeskBotTest extends PlatformTest {

    @LocalServerPort
    protected int port;

    protected final Boards boards = new Boards();
    protected Api alice;
    protected DeskBot bot;

    @BeforeEach
    void ownerWithDeskBot() {
        alice = Api.at(port).newOwner("alice");
        bot = boards.deskBot(alice);
    }

    @AfterEach
    void closeBoards() {
        boards.close();
    }
}
