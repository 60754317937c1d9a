/**
 * Ring 0's identity: accounts (owners, analysts, the administrator), API tokens (stored hashed),
 * gateway service credentials, and the {@link dev.ringzero.accounts.Caller} every request carries.
 *
 * <p>Owns the port {@link dev.ringzero.accounts.LoginDirectory}, through which every account is
 * mirrored into the webapps' logins (the workflow package implements it on the engine's identity
 * service). May use: the root package. Nothing else of RingZero.
 */
package dev.ringzero.accounts;
