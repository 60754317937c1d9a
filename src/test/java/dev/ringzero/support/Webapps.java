package dev.ringzero.support;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngines;

/**
 * The Camunda webapps (Tasklist, Cockpit) in browser tests. They look their engine up in {@link
 * ProcessEngines}, whose first lookup also builds an engine from any {@code camunda.cfg.xml} on the
 * classpath under the same name: on the test classpath that is the process tests' in-memory engine,
 * which the webapps would then show (and offer its empty identity's "initial setup"). The platform's
 * engine is put back in its place, and the one built from the file closed. The main classpath has
 * no such file.
 */
public final class Webapps {

    private Webapps() {
    }

    public static void usePlatformEngine(ProcessEngine platform) {
        ProcessEngines.init();
        // the engine init() built from camunda.cfg.xml is closed, which drops its in-memory schema
        // (create-drop): left open, the process tests' own engine, built later in this JVM from the
        // same file and database URL, failed to create its tables ("ACT_HI_PROCINST already exists")
        for (ProcessEngine built : java.util.List.copyOf(ProcessEngines.getProcessEngines().values())) {
            if (built != platform) {
                built.close();
            }
        }
        ProcessEngines.registerProcessEngine(platform);
    }
}
