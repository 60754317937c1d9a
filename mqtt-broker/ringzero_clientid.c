/*
 * RingZero's client-id rule for Mosquitto 2 (CONTRACTS.md, MQTT link): a device that logs in as
 * {gadgetId} may use the client id {gadgetId} or {gadgetId}.<suffix>, nothing else.
 *
 * Why a plugin: a broker holds one session per client id and closes the old connection when a
 * new one with the same id logs in, whoever that is. Mosquitto checks no client id against the
 * username, and dynamic security can only pin one exact client id per client (which would refuse
 * a device's second connection). Without this check the owner of `desk` could log in with its own
 * credential as client id `desk-a` (or any id) and knock another owner's `desk-a` offline at will.
 * `.` cannot appear in a gadget id, so no device's client id can be another device's.
 *
 * It runs before dynamic security (its `plugin` line comes first): it refuses a wrong client id
 * and defers everything else, so dynamic security still checks the password.
 * Usernames given as `plugin_opt_trusted_user` (the platform's own) may use any client id.
 *
 * Build: cc -shared -fPIC -O2 -o ringzero_clientid.so ringzero_clientid.c (needs mosquitto-dev,
 * libmosquitto-dev); mqtt-broker/start.sh builds it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <mosquitto.h>
#include <mosquitto_broker.h>
#include <mosquitto_plugin.h>

#define MAX_TRUSTED 8

static mosquitto_plugin_id_t *plugin_id;
static char *trusted[MAX_TRUSTED];
static int trusted_count;

static bool is_trusted(const char *username)
{
	for (int i = 0; i < trusted_count; i++) {
		if (strcmp(trusted[i], username) == 0) {
			return true;
		}
	}
	return false;
}

/* {username} or {username}.<non-empty suffix> */
static bool own_client_id(const char *username, const char *client_id)
{
	size_t length = strlen(username);
	if (strncmp(client_id, username, length) != 0) {
		return false;
	}
	return client_id[length] == '\0' || (client_id[length] == '.' && client_id[length + 1] != '\0');
}

static int on_basic_auth(int event, void *event_data, void *userdata)
{
	struct mosquitto_evt_basic_auth *auth = event_data;
	const char *client_id = mosquitto_client_id(auth->client);
	(void)event;
	(void)userdata;

	if (auth->username == NULL || client_id == NULL) {
		return MOSQ_ERR_PLUGIN_DEFER; /* anonymous: refused by allow_anonymous false */
	}
	if (is_trusted(auth->username) || own_client_id(auth->username, client_id)) {
		return MOSQ_ERR_PLUGIN_DEFER; /* dynamic security checks the password */
	}
	mosquitto_log_printf(MOSQ_LOG_NOTICE, "ringzero: refused client id %s for user %s", client_id,
			auth->username);
	return MOSQ_ERR_AUTH;
}

int mosquitto_plugin_version(int supported_version_count, const int *supported_versions)
{
	(void)supported_version_count;
	(void)supported_versions;
	return 5;
}

int mosquitto_plugin_init(mosquitto_plugin_id_t *identifier, void **userdata, struct mosquitto_opt *options,
		int option_count)
{
	(void)userdata;
	plugin_id = identifier;
	for (int i = 0; i < option_count; i++) {
		if (strcmp(options[i].key, "trusted_user") == 0 && trusted_count < MAX_TRUSTED) {
			trusted[trusted_count++] = strdup(options[i].value);
		}
	}
	return mosquitto_callback_register(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL, NULL);
}

int mosquitto_plugin_cleanup(void *userdata, struct mosquitto_opt *options, int option_count)
{
	(void)userdata;
	(void)options;
	(void)option_count;
	for (int i = 0; i < trusted_count; i++) {
		free(trusted[i]);
	}
	trusted_count = 0;
	return mosquitto_callback_unregister(plugin_id, MOSQ_EVT_BASIC_AUTH, on_basic_auth, NULL);
}
