// RingZero's Cockpit configuration (replaces the webjar's own config.js, which sets nothing).
// customScripts are loaded relative to app/cockpit/: the "Run history" view of finished runs.
export default {
  customScripts: ['scripts/ringzero-run-history.js'],
};
