// Package exampleaddon is a small but complete add-on for the e-shop management
// API. It is living documentation: every rule an add-on must follow is
// implemented here once, in plain net/http, without importing anything of
// the sandbox, so it reads the same against the real service.
//
// What an add-on must do, and where this one does it:
//
//  1. Installation (install.go). The e-shop calls the add-on's install URL
//     with GET ?code=<255 characters>. In that same request the add-on
//     POSTs the code, with its client_id, client_secret and redirect_uri
//     (grant_type authorization_code, scope api), to the OAuth server
//     address {eshop_url}/action/ApiOAuthServer/token and receives the
//     OAuth access token. It answers 200 only once it holds that token;
//     a failed exchange is answered with an error status, never 200.
//     The code is single use and short-lived: it is never stored or sent
//     twice.
//
//  2. The OAuth access token (tokens.go) binds the add-on to one e-shop.
//     It is kept on the server (the state file is written 0600), never
//     sent to a browser, and used for one thing only: GET
//     {eshop_url}/action/ApiOAuthServer/getAccessToken with
//     Authorization: Bearer <OAuth token>, which answers a temporary API
//     access token and its lifetime (access_token, expires_in).
//
//  3. API tokens (tokens.go, api.go). At most 5 may be valid at once, so
//     the add-on keeps one per e-shop and reuses it until it expires. A
//     401 expired-token means: fetch a new one and repeat the call once.
//     429 maximum_tokens_reached means: wait and ask again.
//
//  4. Calls (api.go) carry Content-Type on every request (GET and DELETE
//     too) and the API token in <prefix>-Access-Token; at most 3 are open
//     at once per token (notifications are processed in parallel, so the
//     calls wait for a free slot). 423 (a lock on the same URL) and 429
//     (too many concurrent calls, or the rate bucket is full) are retried
//     after the time Retry-After names (an HTTP date or seconds), or with
//     exponential back-off when it is absent. A 400 or 422 is never
//     repeated unchanged.
//
//  5. Asynchronous endpoints (jobs.go). With --events including
//     customer:import, a mass import is read with GET
//     /api/customers/snapshot, which answers a job id; job:finished is
//     registered first (the e-shop refuses asynchronous calls without
//     it), and on job:finished the add-on reads the job and downloads its
//     gzip JSON Lines result.
//
//  6. Webhooks (webhooks.go). The add-on obtains its signature key with
//     POST /api/webhooks/renew-signature-key (data.signatureKey) and
//     checks every notification: <prefix>-Webhook-Signature must be the
//     lowercase hex HMAC-SHA1 of the raw body, compared in constant time.
//     A bad signature is answered 401 and ignored. A good one is answered
//     200 at once and processed afterwards (here: the order is fetched).
//     The system events addon:suspend, addon:approve, addon:terminate and
//     addon:uninstall arrive at the add-on's configured webhook URL.
//
//  6. Payments (payments.go). As a payment gateway the add-on has one
//     gateway address, with #PAYMENT_CODE#, #ESHOP_ID# and #LANGUAGE#,
//     where the e-shop sends the buyer after the order. It reads the
//     payment (GET /api/payment-status/{paymentCode}: the order code and
//     the return address), checks the order (already paid or canceled: an
//     inconsistency it escalates, changing nothing), and then makes two
//     calls: PATCH /api/payment-status/{paymentCode} stores the payment
//     result, and PATCH /api/orders/{code}/status sets the order status
//     the e-shop maps that result to. The result alone changes no order;
//     only the status call makes it paid, with the documents and e-mails
//     of that status. Finally the buyer goes back to the return address.
//
// Sandbox conveniences (sandbox.go) are kept apart: fetching the client
// credentials from the sandbox's control plane, registering this process's
// URLs and gateway address there, and asking the sandbox to install the
// add-on. Against the real service these come from the partner
// administration and the service's operator instead.
package exampleaddon
