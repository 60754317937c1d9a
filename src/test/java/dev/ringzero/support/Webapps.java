package dev.ringzero.support;

import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.ProcessEngines;

/**
 * The Camunda webapps (Tasklist, Cockpit) in browser tests. They look their engine up in {@link
 * ProcessEngines}, whose first lookup also builds an engine from any {@code camunda.cfg.xml} on the
 * classpath under the same name: on the test classpath that is the process tests' in-memory engine,
 * which the webapps would then show (and offer its empty identity's "initial setup"). The platform's
 * engine is put back in its place. The main classpath has no such file.
 */
public final class Webapps {

    private Webapps() {
    }

    public static void usePlatformEngine(ProcessEngine platform) {
        ProcessEngines.init();
        ProcessEngines.registerProcessEngine(platform);
    }
}
