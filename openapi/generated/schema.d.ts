// Generated from openapi/openapi.json by openapi-typescript (npm run openapi). Do not edit.
export interface paths {
    "/api/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments
         * @description Newest first. Pass `next_cursor` as `cursor` for the next page (keep the same filters). Every filter is optional and they combine: `status` takes one status or several separated by commas (`paid,verified`); `tracking_code` and `rrn` find the payment a customer or the bank statement names; `amount_gte`/`amount_lte` and `created_gte`/`created_lt` are ranges.
         */
        get: operations["listPayments"];
        put?: never;
        /**
         * Create a payment
         * @description Registers a payment and starts its workflow. Send the customer to `payment_url`. Deliver nothing until verify succeeds. `fee_payer: customer` charges the customer `amount` + the fee (fixed now from your fee plan; see `GET /api/v1/fees`) and leaves you the whole amount; verify still takes `amount`.
         */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Preview the fee of an amount
         * @description What a payment of `amount` would cost under your fee plan: the fee, what the customer will be charged at the bank and what you receive at verify. With `fee_payer=merchant` (the default) the customer is charged the amount and the fee comes out of it; with `fee_payer=customer` the customer is charged amount + fee and you receive the whole amount. A customer-pays payment fixes its fee when it is created, so a later change of your fee plan does not change it. A customer-pays amount whose charge (amount + fee) would pass the largest payment is refused here as create would refuse it: 422 `charged_amount_exceeds_max`.
         */
        get: operations["previewFee"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a payment */
        get: operations["getPayment"];
        put?: never;
        /**
         * Update a payment's metadata
         * @description Merges `metadata` into the payment's: a string sets a key, `null` removes it, keys not named stay. At most 20 keys in all. A refused update changes nothing.
         */
        post: operations["updatePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a payment
         * @description Cancels a payment nobody has paid yet (`created` → `canceled`, failure code `canceled_by_merchant`); its page then shows it canceled. Canceling it again answers the same.
         */
        post: operations["cancelPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/{id}/reverse": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reverse a payment now
         * @description Gives a paid, unverified payment back to the customer at once, as the verify deadline would (`paid` → `reversed`, no fee). Reversing it again answers the same.
         */
        post: operations["reversePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test_helpers/payments/{id}/bank_outcome": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer for a test payment's bank
         * @description Test keys only. Does what the simulated bank page's buttons do, without a browser, and answers once the outcome is applied. An outcome for a payment that is no longer `created` changes nothing.
         */
        post: operations["simulateBankOutcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test_helpers/payments/{id}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a test payment's clock forward
         * @description Test keys only. Moves this payment's own clock forward by `seconds`: its timers that fall due (expiry, the delayed bank confirmation, the verify deadline, the refund window) fire at once, and their transitions and events happen for real before the answer. The payment's timestamps are read on its clock from then on.
         */
        post: operations["advancePaymentClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a payment
         * @description Finalises a paid payment with the order amount. Call it from your server before `verify_deadline_at`; only a successful answer means you may deliver. Verifying again with the same amount answers the same.
         */
        post: operations["verifyPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payments/{id}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a payment's refunds */
        get: operations["listPaymentRefunds"];
        put?: never;
        /**
         * Refund a payment
         * @description Refunds a verified payment in part or in full (default: everything not yet refunded). Answers as soon as the refund is recorded `pending`; it ends `succeeded` or `failed` (poll the refund or listen for `refund.*` webhooks). Concurrent refunds never add up to more than was paid. How it reaches the customer depends on the payment's PSP (the refund's `method`): the PSP's refund operation; where the PSP has none, a reversal of the whole payment within the PSP's reversal window, or else a bank transfer to `destination_iban` (without one: 422 `refund_needs_iban`).
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List refunds
         * @description All of the merchant's refunds in this key's mode, newest first, paged like payments. The filters are optional and combine.
         */
        get: operations["listRefunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/refunds/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a refund */
        get: operations["getRefund"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payment_links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payment links
         * @description The merchant's payment links in this key's mode, newest first, paged like payments.
         */
        get: operations["listPaymentLinks"];
        put?: never;
        /**
         * Create a payment link
         * @description A page at `url` (`/l/{slug}`) where customers pay you without a server of yours: a fixed `amount`, or a range (`min_amount`, `max_amount`) the customer chooses within, and the fields to `collect`. The gateway verifies each payment itself when the bank confirms it; you see it in the dashboard and by the `payment.verified` webhook, with `payment_link` set. `qr_url` is the link as an SVG QR code.
         */
        post: operations["createPaymentLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payment_links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a payment link */
        get: operations["getPaymentLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payment_links/{id}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate a payment link
         * @description For good: its page then says so and starts no payment. Payments already started go on. Deactivating again answers the same.
         */
        post: operations["deactivatePaymentLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mandates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List mandates
         * @description The merchant's mandates in this key's mode, newest first, paged like payments.
         */
        get: operations["listMandates"];
        put?: never;
        /**
         * Ask for a direct debit mandate
         * @description A mandate (Payman) the customer signs once at their bank, within its limits: the largest debit, how many a day and a month, and when it ends (at least 30 days out). It starts `pending`; send the customer to `bank_page_url`, where they pick their bank and sign. They come back to `return_url` with `mandate_id` and `status` in the query; the `mandate.active` (or `mandate.declined`) webhook says the same. A mandate not signed within an hour ends `expired`.
         */
        post: operations["createMandate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mandates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a mandate */
        get: operations["getMandate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mandates/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a mandate
         * @description Ends a pending or active mandate, at the provider too, and answers it `canceled` (`mandate.canceled` is sent) once every `active` or `past_due` subscription on it is `canceled` too (`cancel_reason: mandate_canceled`, `subscription.canceled` for each). A mandate already ended is answered as it is.
         */
        post: operations["cancelMandate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/mandates/{id}/debits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Debit a mandate
         * @description Takes `amount` rials under an active mandate, with no customer present. The mandate's limits are checked first, atomically across concurrent requests: an amount above `max_amount`, or a debit past the day's or the month's count (Tehran's calendar), is 422 `mandate_limit_exceeded` and nothing is asked of the bank or written. An admitted debit is a payment (`method: direct_debit`), answered `created`; it becomes `verified` once the provider has taken the money (with the fee of your plan, in the ledger and settlements like any payment), or `failed` (`debit_refused`) when the provider refuses, which gives the mandate's count back. `payment.verified` or `payment.failed` is sent; `GET /api/v1/payments/{id}` shows it. One Idempotency-Key is one debit: the same key and body answer the same debit.
         */
        post: operations["createDebit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plans
         * @description The merchant's plans in this key's mode, newest first, paged like payments.
         */
        get: operations["listPlans"];
        put?: never;
        /**
         * Create a plan
         * @description An amount in rials charged every `interval`: `week`, `month` (the same day of each month, the last day when a month is shorter), `year`, or `days` with `interval_days`.
         */
        post: operations["createPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a plan */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscriptions
         * @description The merchant's subscriptions in this key's mode, newest first, paged like payments.
         */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Subscribe a mandate to a plan
         * @description Charges the plan's amount on the mandate now and at the start of every period after, each charge a debit (a payment of `method: direct_debit`). The mandate must be yours, active, and allow the plan's amount (`max_amount`); otherwise nothing is written. A refused charge makes it `past_due` (`subscription.past_due`) and is tried again 1, 3 and 5 days later; a charge that succeeds makes it `active` (`subscription.charged`, with `payment_id`); when the last try is refused it is `canceled` (`cancel_reason: charge_failed`).
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a subscription */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/subscriptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a subscription
         * @description `at_period_end: true`: nothing is charged after the current period, and it is `canceled` when that period ends. `at_period_end: false`: `canceled` now (a charge already at the bank completes). `subscription.canceled` is sent either way; a canceled subscription is answered as it is.
         */
        post: operations["cancelSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test_helpers/subscriptions/{id}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a test subscription's clock forward
         * @description Test keys only. Moves this subscription's own clock forward by `seconds`: the period starts and retries that fall due are charged at once, for real (debits at the simulator), before the answer.
         */
        post: operations["advanceSubscriptionClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve the balance
         * @description The merchant's balance in this key's mode, from the ledger: what the next settlement would pay out now (`available`), the rest of the balance (`pending`), what customers paid and you have not verified (`held`) and settlements on their way to your IBAN (`in_payout`). Test mode is never settled: its `available` is always 0.
         */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List settlements
         * @description The merchant's settlements (live mode only; a test key sees none), newest first, paged like payments. The filters are optional and combine.
         */
        get: operations["listSettlements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settlements/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Retrieve a settlement with its lines
         * @description The settlement and every line it covers: each payment (amount and fee), each refund (deducted), each refused refund given back, and each beneficiary's share of a split payment (deducted, with the IBAN it is paid to by a transfer of its own).
         */
        get: operations["getSettlement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/settlements/{id}/lines.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a settlement's lines as CSV
         * @description The lines of the settlement as CSV (UTF-8, CRLF line ends), a header line then one line per payment, refund, refused refund given back or beneficiary's share (its `iban` set; empty on the other lines); streamed.
         */
        get: operations["getSettlementLines"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/beneficiaries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List beneficiaries
         * @description All your beneficiaries, newest first, with their review status (not paged: a merchant has a handful).
         */
        get: operations["listBeneficiaries"];
        put?: never;
        /**
         * Register a beneficiary
         * @description Registers a Sheba IBAN your payments may split to (split settlement, تسهیم). Live keys only: a share is paid out of live money, so a test key is refused (403 `live_mode_only`, nothing written); test payments split to the beneficiaries a live key registered. It is `pending` until the operator checks and approves it; only an approved beneficiary may be named in a payment's `splits`, and one the operator revoked (`revoked`) is named by no later payment. The same IBAN again answers the beneficiary it already is (200), whatever its status.
         */
        post: operations["createBeneficiary"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/payments.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download payments as CSV
         * @description Every payment of this key's mode created in [`created_gte`, `created_lt`) (at most 366 days), oldest first, as CSV (RFC 4180, UTF-8, CRLF line ends): a header line naming the columns, then one line per payment. A field that contains a comma, a quote or a line break is quoted, its quotes doubled; a field that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` so that spreadsheets do not run it as a formula. `metadata` is a JSON object. `fee_payer`, `charged_amount` (what the customer was charged), `splits_amount` (the sum of the split shares, 0 without splits) and `merchant_receives` (`charged_amount` − `fee` − `splits_amount`: what verify put on the balance, before refunds; empty until verified) come last. The file is streamed: an error found before the download starts is a JSON error; a failure during the download cuts the response short (no final chunk), so a complete download is one that ended cleanly.
         */
        get: operations["getPaymentsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description The `whsec_` signing secret is in this answer only: store it. Live mode accepts only https URLs on public addresses.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a webhook endpoint */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a disabled webhook endpoint
         * @description An endpoint is disabled when its receiver answers 410 Gone or when a delivery fails every attempt of its schedule (a `webhook_endpoint.disabled` event tells your other endpoints). Enable it once the receiver works: new events reach it again; send what it missed with redeliver. Enabling an enabled endpoint changes nothing.
         */
        post: operations["enableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret
         * @description Returns the new secret (shown once). Until the old one expires, deliveries carry both signatures.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List events */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an event with its delivery attempts */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an event again
         * @description Starts a new delivery (with the same `webhook-id`) to one endpoint or every subscribed, enabled one. A merchant may ask for `WEBHOOK_REDELIVERIES_PER_MINUTE` redeliveries a minute per mode (30 by default); beyond that the answer is 429 `rate_limited` with `Retry-After`.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description The process answers.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Ready when MySQL and Temporal both answer.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "payment.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.created
         * @description Sent to every enabled endpoint subscribed to `payment.created`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.pending
         * @description Sent to every enabled endpoint subscribed to `payment.pending`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentPendingWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.paid
         * @description Sent to every enabled endpoint subscribed to `payment.paid`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentPaidWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.verified": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.verified
         * @description Sent to every enabled endpoint subscribed to `payment.verified`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentVerifiedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.failed
         * @description Sent to every enabled endpoint subscribed to `payment.failed`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentFailedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.card_not_allowed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.card_not_allowed
         * @description Sent to every enabled endpoint subscribed to `payment.card_not_allowed`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentCardNotAllowedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.canceled
         * @description Sent to every enabled endpoint subscribed to `payment.canceled`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentCanceledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.expired
         * @description Sent to every enabled endpoint subscribed to `payment.expired`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentExpiredWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.reversed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.reversed
         * @description Sent to every enabled endpoint subscribed to `payment.reversed`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentReversedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.partially_refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.partially_refunded
         * @description Sent to every enabled endpoint subscribed to `payment.partially_refunded`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentPartiallyRefundedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.refunded
         * @description Sent to every enabled endpoint subscribed to `payment.refunded`; `data.payment` is the payment after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["paymentRefundedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * refund.created
         * @description Sent to every enabled endpoint subscribed to `refund.created`; `data.refund` is the refund after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["refundCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * refund.succeeded
         * @description Sent to every enabled endpoint subscribed to `refund.succeeded`; `data.refund` is the refund after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["refundSucceededWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "refund.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * refund.failed
         * @description Sent to every enabled endpoint subscribed to `refund.failed`; `data.refund` is the refund after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["refundFailedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook_endpoint.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * webhook_endpoint.disabled
         * @description Sent to every enabled endpoint subscribed to `webhook_endpoint.disabled`; `data.webhook_endpoint` is the webhook endpoint after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["webhookEndpointDisabledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "settlement.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * settlement.paid
         * @description Sent to every enabled endpoint subscribed to `settlement.paid`; `data.settlement` is the settlement after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["settlementPaidWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "settlement.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * settlement.failed
         * @description Sent to every enabled endpoint subscribed to `settlement.failed`; `data.settlement` is the settlement after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["settlementFailedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "beneficiary_payout.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * beneficiary_payout.paid
         * @description Sent to every enabled endpoint subscribed to `beneficiary_payout.paid`; `data.beneficiary_payout` is the beneficiary payout after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["beneficiaryPayoutPaidWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "beneficiary_payout.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * beneficiary_payout.failed
         * @description Sent to every enabled endpoint subscribed to `beneficiary_payout.failed`; `data.beneficiary_payout` is the beneficiary payout after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["beneficiaryPayoutFailedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.active": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * mandate.active
         * @description Sent to every enabled endpoint subscribed to `mandate.active`; `data.mandate` is the mandate after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["mandateActiveWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.declined": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * mandate.declined
         * @description Sent to every enabled endpoint subscribed to `mandate.declined`; `data.mandate` is the mandate after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["mandateDeclinedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * mandate.canceled
         * @description Sent to every enabled endpoint subscribed to `mandate.canceled`; `data.mandate` is the mandate after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["mandateCanceledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "mandate.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * mandate.expired
         * @description Sent to every enabled endpoint subscribed to `mandate.expired`; `data.mandate` is the mandate after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["mandateExpiredWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * subscription.created
         * @description Sent to every enabled endpoint subscribed to `subscription.created`; `data.subscription` is the subscription after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["subscriptionCreatedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.charged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * subscription.charged
         * @description Sent to every enabled endpoint subscribed to `subscription.charged`; `data.subscription` is the subscription after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["subscriptionChargedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.past_due": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * subscription.past_due
         * @description Sent to every enabled endpoint subscribed to `subscription.past_due`; `data.subscription` is the subscription after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["subscriptionPastDueWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "subscription.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * subscription.canceled
         * @description Sent to every enabled endpoint subscribed to `subscription.canceled`; `data.subscription` is the subscription after the change. Answer 2xx quickly; anything else is retried with the same `webhook-id`; 410 disables the endpoint.
         */
        post: operations["subscriptionCanceledWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Payment: {
            /**
             * Format: uuid
             * @description identifier of the payment
             */
            id: string;
            /**
             * @description Lifecycle status; see docs/PAYMENTS.md.
             * @enum {string}
             */
            status: "created" | "pending" | "paid" | "verified" | "failed" | "canceled" | "expired" | "reversed" | "partially_refunded" | "refunded";
            /**
             * @description `test` for payments made with a test key
             * @enum {string}
             */
            mode: "test" | "live";
            /**
             * @description amount in rials
             * @example 1500000
             */
            amount: number;
            /** @description fee in rials; set at verify, 0 before and on reversed payments */
            fee: number;
            /**
             * @description who pays the gateway's fee: `merchant` (taken from the amount at verify) or `customer` (added to the amount the bank charges)
             * @enum {string}
             */
            fee_payer: "merchant" | "customer";
            /**
             * @description rials the customer is charged at the bank: `amount` when the merchant pays the fee, `amount` + the fee (fixed at create) when the customer does
             * @example 1515000
             */
            charged_amount: number;
            /** @description rials returned to the customer so far */
            refunded_amount: number;
            /** @constant */
            currency: "IRR";
            /**
             * @description the merchant's order reference
             * @example order-1042
             */
            merchant_reference: string;
            /** @description tracking code shown to the customer */
            tracking_code: string;
            /** @description the bank's reference, once paid */
            reference_id: string | null;
            /** @description retrieval reference number, once paid */
            rrn: string | null;
            /** @description masked card number, once paid */
            card_pan: string | null;
            /** @description free text about the order */
            description: string;
            /**
             * Format: uri
             * @description where the customer returns
             */
            callback_url: string;
            /**
             * @description the merchant's own key-value data; up to 20 keys of 1–40 characters [A-Za-z0-9_-], string values up to 500 characters
             * @example {
             *       "order_id": "1042",
             *       "customer": "c-77"
             *     }
             */
            metadata: {
                [key: string]: string;
            };
            /** @description why the payment failed, was canceled or expired */
            failure: {
                /**
                 * @description machine-readable reason
                 * @example card_declined
                 */
                code: string;
                /** @description human-readable reason */
                message: string;
            } | null;
            /**
             * Format: date-time
             * @description creation time
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
            /** @description null until paid */
            paid_at: string | null;
            /** @description null until verified */
            verified_at: string | null;
            /** @description null until paid */
            verify_deadline_at: string | null;
            /**
             * Format: date-time
             * @description end of the period in which the payment page can be used
             * @example 2026-11-21T10:15:30.123Z
             */
            expires_at: string;
            /**
             * @description `not_applicable` for test payments
             * @enum {string}
             */
            settlement_status: "not_applicable" | "pending" | "settled";
            /** @description the PSP and terminal that took the payment (gave it its bank token; docs/psps/routing.md); null until the customer is sent to a bank, and on payments made before routing (which went to SEP) */
            psp: {
                /**
                 * @description the PSP (Shaparak payment service provider)
                 * @enum {string}
                 */
                name: "sep" | "mellat" | "asanpardakht" | "parsian" | "sadad" | "pasargad" | "irankish" | "sepehr";
                /**
                 * @description the gateway's terminal at that PSP
                 * @example 11223344
                 */
                terminal_id: string;
            } | null;
            /**
             * @description the protocol that created the payment: `api` (this API), or ZarinPal's or Zibal's (docs/COMPAT.md)
             * @enum {string}
             */
            created_via: "api" | "zarinpal" | "zibal";
            /**
             * @description how it was paid: `card` (the hosted page and a PSP) or `direct_debit` (a debit of a mandate, no customer present: POST /api/v1/mandates/{id}/debits)
             * @enum {string}
             */
            method: "card" | "direct_debit";
            /** @description the only cards that may pay, masked (first six and last four digits); null when any card may */
            allowed_cards: string[] | null;
            /** @description the payer's national code the merchant named, masked; null when none */
            national_code: string | null;
            /** @description the payment link the customer paid on (docs/PAYMENTS.md#payment-links); null for a payment the merchant created */
            payment_link: string | null;
            /** @description the beneficiaries' shares (docs/PAYMENTS.md#split-settlement), on a payment created with `splits`: in the create answer, GET /payments/{id}, each entry of GET /payments and every `payment.*` event */
            splits?: {
                /** Format: uuid */
                beneficiary_id: string;
                /** @description the beneficiary's Sheba IBAN */
                iban: string;
                /** @description the share, in rials */
                amount: number;
                description: string;
                /** @description taken back from the share by refunds */
                refunded: number;
                /** @description whether a settlement has paid the share out */
                settled: boolean;
            }[];
        };
        PaymentLink: {
            /**
             * Format: uuid
             * @description identifier of the link
             */
            id: string;
            /**
             * @description the link's name in its URL
             * @example k7m2qr9xte
             */
            slug: string;
            /**
             * Format: uri
             * @description the page customers pay on: share this
             */
            url: string;
            /**
             * Format: uri
             * @description an SVG QR code of `url`
             */
            qr_url: string;
            /**
             * @description the mode of the key that created it; its payments are of this mode
             * @enum {string}
             */
            mode: "test" | "live";
            /** @description what is sold, the page heading */
            title: string;
            /** @description more about it, shown under the title */
            description: string;
            /** @description the fixed amount in rials; null when the customer chooses within min_amount..max_amount */
            amount: number | null;
            /** @description the least the customer may pay, in rials; null for a fixed amount */
            min_amount: number | null;
            /** @description the most the customer may pay, in rials; null for a fixed amount */
            max_amount: number | null;
            /** @description the fields the link page asks the customer for; they land in the payment metadata as `link_name`, `link_mobile`, `link_note` */
            collect: {
                /**
                 * @description ask the customer for their name: `optional` or `required`; absent: not asked
                 * @enum {string}
                 */
                name?: "optional" | "required";
                /**
                 * @description ask the customer for their mobile: `optional` or `required`; absent: not asked
                 * @enum {string}
                 */
                mobile?: "optional" | "required";
                /**
                 * @description ask the customer for their note: `optional` or `required`; absent: not asked
                 * @enum {string}
                 */
                note?: "optional" | "required";
            };
            /** @description null: never expires */
            expires_at: string | null;
            /** @description how many payments the link takes; null: no limit */
            max_payments: number | null;
            /** @description payments of the link that hold a place against max_payments now: every one it started, but those that failed, were canceled, expired or were reversed, which gave theirs back (docs/PAYMENTS.md#payment-links) */
            payments_count: number;
            /** @description false once deactivated */
            active: boolean;
            /**
             * Format: date-time
             * @description creation time
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
        };
        Mandate: {
            id: string;
            /** @constant */
            object: "mandate";
            /**
             * @description test or live
             * @enum {string}
             */
            mode: "test" | "live";
            /** @description the direct debit provider, e.g. zarinpal */
            provider: string;
            /**
             * @description pending, active, declined, canceled or expired
             * @enum {string}
             */
            status: "pending" | "active" | "declined" | "canceled" | "expired";
            /** @description the customer's mobile, masked */
            mobile: string;
            max_amount: number;
            max_daily_count: number;
            max_monthly_count: number;
            /**
             * Format: date-time
             * @description when the mandate ends
             * @example 2026-11-21T10:15:30.123Z
             */
            expires_at: string;
            return_url: string;
            reference: string;
            /** @description why a mandate was declined; null otherwise */
            failure_code: string | null;
            /** @description the bank the customer chose to sign at, on the gateway's bank page; null before a choice (and for mandates signed before banks were recorded) */
            bank: {
                /**
                 * @description the bank's code as the provider lists it
                 * @example SABCIR
                 */
                code: string;
                /**
                 * @description the bank's name as the provider gave it
                 * @example بانک سامان
                 */
                name: string;
            } | null;
            /**
             * Format: date-time
             * @description when the mandate was asked
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
            /** @description null until signed */
            activated_at: string | null;
            /** @description null while pending or active */
            ended_at: string | null;
        };
        Plan: {
            /** Format: uuid */
            id: string;
            /** @constant */
            object: "plan";
            /**
             * @description test or live
             * @enum {string}
             */
            mode: "test" | "live";
            name: string;
            /** @description rials charged each period */
            amount: number;
            /** @enum {string} */
            interval: "week" | "month" | "year" | "days";
            /** @description the period in days with `interval: days`; null otherwise */
            interval_days: number | null;
            /**
             * Format: date-time
             * @description when the plan was made
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
        };
        Subscription: {
            /** Format: uuid */
            id: string;
            /** @constant */
            object: "subscription";
            /**
             * @description test or live
             * @enum {string}
             */
            mode: "test" | "live";
            /** Format: uuid */
            plan_id: string;
            /** Format: uuid */
            mandate_id: string;
            /**
             * @description active, past_due or canceled
             * @enum {string}
             */
            status: "active" | "past_due" | "canceled";
            /** @description rials charged each period (the plan's, when subscribed) */
            amount: number;
            /** @description the period being charged or paid, from 0 */
            current_period: number;
            /**
             * Format: date-time
             * @description the current period's start, on the subscription's clock
             * @example 2026-11-21T10:15:30.123Z
             */
            current_period_start: string;
            /**
             * Format: date-time
             * @description the current period's end: the next period's start
             * @example 2026-11-21T10:15:30.123Z
             */
            current_period_end: string;
            cancel_at_period_end: boolean;
            /** @description the current period's failed charges */
            failed_attempts: number;
            /** @description the last charge's payment; null before the first */
            latest_payment_id: string | null;
            /** @description null unless canceled */
            cancel_reason: string | null;
            /**
             * Format: date-time
             * @description when the subscription was made
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
            /** @description null unless canceled */
            canceled_at: string | null;
            /**
             * Format: uri
             * @description the customer's own page of the subscription, a signed link to pass on to the customer (by the merchant's own channel: the gateway keeps no customer contact): the plan, the next charge, the mandate's bank, and a cancel at the period's end
             */
            customer_url: string;
        };
        Refund: {
            /**
             * Format: uuid
             * @description identifier of the refund
             */
            id: string;
            /**
             * Format: uuid
             * @description the refunded payment
             */
            payment_id: string;
            /**
             * @description rials returned to the customer by this refund
             * @example 500000
             */
            amount: number;
            /**
             * @description only forward: `awaiting_approval` (held until the gateway's operator approves it: an IBAN a person typed, or a refund the merchant's balance does not cover; see `held_for`), `awaiting_payer` (waiting for the customer to claim it at `claim_url` with the card that paid), `pending` (being paid out, until the bank answers), then `succeeded` or `failed` (a rejected refund is `failed` with `failure.code` `refund_rejected`). The amount is reserved on the payment from the first status on
             * @enum {string}
             */
            status: "awaiting_approval" | "awaiting_payer" | "pending" | "succeeded" | "failed";
            /** @description the merchant's reason, if given */
            reason: string | null;
            /**
             * Format: date-time
             * @description creation time
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
            /** @description null unless succeeded */
            succeeded_at: string | null;
            /** @description why the bank refused the refund; null unless failed */
            failure: {
                /**
                 * @description machine-readable reason
                 * @example card_declined
                 */
                code: string;
                /** @description human-readable reason */
                message: string;
            } | null;
            /**
             * @description how the refund reaches the customer, chosen by what the payment's PSP offers: `psp_refund` (the PSP's refund operation), `reversal` (the whole payment reversed at the PSP within its reversal window), `payer_card` (a bank transfer to the account of the card that paid, once the customer claims it at `claim_url` with that card), `iban_payout` (a bank transfer to `destination_iban`, a typed IBAN: paid only once the gateway's operator approves it)
             * @enum {string}
             */
            method: "psp_refund" | "reversal" | "iban_payout" | "payer_card";
            /** @description null until known */
            destination_iban: string | null;
            /** @description null unless the refund is paid to the payer's card */
            owner_name?: string | null;
            /** @description null unless held for approval */
            held_for?: ("typed_iban" | "balance") | null;
            /** @description null unless the refund is paid to the payer's card */
            claim_url?: string | null;
        };
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            url: string;
            /** @description subscribed event types; null: every type */
            events: ("payment.created" | "payment.pending" | "payment.paid" | "payment.verified" | "payment.failed" | "payment.card_not_allowed" | "payment.canceled" | "payment.expired" | "payment.reversed" | "payment.partially_refunded" | "payment.refunded" | "refund.created" | "refund.succeeded" | "refund.failed" | "webhook_endpoint.disabled" | "settlement.paid" | "settlement.failed" | "beneficiary_payout.paid" | "beneficiary_payout.failed" | "mandate.active" | "mandate.declined" | "mandate.canceled" | "mandate.expired" | "subscription.created" | "subscription.charged" | "subscription.past_due" | "subscription.canceled")[] | null;
            /** @enum {string} */
            mode: "test" | "live";
            /**
             * @description `disabled` after the receiver answered 410 Gone or a delivery failed every attempt (a `webhook_endpoint.disabled` event); `POST …/enable` enables it again
             * @enum {string}
             */
            status: "enabled" | "disabled";
            disabled_reason: string | null;
            /** @description null unless a rotation is in progress */
            previous_secret_expires_at: string | null;
            /**
             * Format: date-time
             * @description creation time
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
        };
        Settlement: {
            /**
             * Format: uuid
             * @description identifier of the settlement
             */
            id: string;
            /**
             * @description `pending` while the transfer is under way, then `paid` or `failed` (a failed one is paid again only by the operator)
             * @enum {string}
             */
            status: "pending" | "paid" | "failed";
            /**
             * @description sum of the amounts of the payments it covers
             * @example 9900000
             */
            gross: number;
            /**
             * @description sum of their fees
             * @example 9900000
             */
            fees: number;
            /**
             * @description refunds it deducts, less refused refunds it gives back
             * @example 9900000
             */
            refunds: number;
            /**
             * @description the beneficiaries' shares of its payments, each beneficiary paid by a transfer of its own (docs/PAYMENTS.md#split-settlement)
             * @example 9900000
             */
            splits: number;
            /**
             * @description gross − fees − splits − refunds: what is transferred to the merchant's IBAN
             * @example 9900000
             */
            net: number;
            payment_count: number;
            /** @description refunds (and refused refunds given back) it covers */
            refund_count: number;
            /** @description the Sheba IBAN it is paid to */
            iban: string;
            /**
             * Format: date-time
             * @description it covers payments verified at or before this time
             * @example 2026-11-21T10:15:30.123Z
             */
            cutoff_at: string;
            /**
             * Format: date-time
             * @description creation time
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
            /** @description null unless paid */
            paid_at: string | null;
            /** @description why the bank refused the transfer; null unless failed */
            failure: {
                /**
                 * @description machine-readable reason
                 * @example card_declined
                 */
                code: string;
                /** @description human-readable reason */
                message: string;
            } | null;
        };
        BeneficiaryPayout: {
            /**
             * Format: uuid
             * @description the settlement that pays it
             */
            settlement_id: string;
            /**
             * Format: uuid
             * @description the beneficiary paid
             */
            beneficiary_id: string;
            /** @description the beneficiary's Sheba IBAN it is paid to */
            iban: string;
            /**
             * @description the sum of the beneficiary's shares in the settlement
             * @example 9900000
             */
            amount: number;
            /**
             * @description `pending` while the transfer is under way, then `paid` or `failed` (a failed one is paid again only by the operator)
             * @enum {string}
             */
            status: "pending" | "paid" | "failed";
            /** @description the transfer's attempt: 1, then one more for each operator retry after a refusal */
            attempt: number;
            /** @description the bank's reference of the transfer; null unless paid */
            bank_reference: string | null;
            /** @description why the bank refused the transfer; null unless failed */
            failure: {
                /**
                 * @description machine-readable reason
                 * @example card_declined
                 */
                code: string;
                /** @description human-readable reason */
                message: string;
            } | null;
            /**
             * Format: date-time
             * @description when its state last changed
             * @example 2026-11-21T10:15:30.123Z
             */
            updated_at: string;
        };
        Event: {
            /** @description also the `webhook-id` header of every delivery */
            id: string;
            /**
             * @description kind of event
             * @enum {string}
             */
            type: "payment.created" | "payment.pending" | "payment.paid" | "payment.verified" | "payment.failed" | "payment.card_not_allowed" | "payment.canceled" | "payment.expired" | "payment.reversed" | "payment.partially_refunded" | "payment.refunded" | "refund.created" | "refund.succeeded" | "refund.failed" | "webhook_endpoint.disabled" | "settlement.paid" | "settlement.failed" | "beneficiary_payout.paid" | "beneficiary_payout.failed" | "mandate.active" | "mandate.declined" | "mandate.canceled" | "mandate.expired" | "subscription.created" | "subscription.charged" | "subscription.past_due" | "subscription.canceled";
            /**
             * Format: date-time
             * @description when the change happened
             * @example 2026-11-21T10:15:30.123Z
             */
            created_at: string;
            /** @description the object after the change: the payment for payment.*, the refund for refund.*, the endpoint for webhook_endpoint.*, the settlement for settlement.*, a beneficiary's transfer for beneficiary_payout.*, the mandate for mandate.*, the subscription for subscription.* */
            data: {
                payment?: {
                    /**
                     * Format: uuid
                     * @description identifier of the payment
                     */
                    id: string;
                    /**
                     * @description Lifecycle status; see docs/PAYMENTS.md.
                     * @enum {string}
                     */
                    status: "created" | "pending" | "paid" | "verified" | "failed" | "canceled" | "expired" | "reversed" | "partially_refunded" | "refunded";
                    /**
                     * @description `test` for payments made with a test key
                     * @enum {string}
                     */
                    mode: "test" | "live";
                    /**
                     * @description amount in rials
                     * @example 1500000
                     */
                    amount: number;
                    /** @description fee in rials; set at verify, 0 before and on reversed payments */
                    fee: number;
                    /**
                     * @description who pays the gateway's fee: `merchant` (taken from the amount at verify) or `customer` (added to the amount the bank charges)
                     * @enum {string}
                     */
                    fee_payer: "merchant" | "customer";
                    /**
                     * @description rials the customer is charged at the bank: `amount` when the merchant pays the fee, `amount` + the fee (fixed at create) when the customer does
                     * @example 1515000
                     */
                    charged_amount: number;
                    /** @description rials returned to the customer so far */
                    refunded_amount: number;
                    /** @constant */
                    currency: "IRR";
                    /**
                     * @description the merchant's order reference
                     * @example order-1042
                     */
                    merchant_reference: string;
                    /** @description tracking code shown to the customer */
                    tracking_code: string;
                    /** @description the bank's reference, once paid */
                    reference_id: string | null;
                    /** @description retrieval reference number, once paid */
                    rrn: string | null;
                    /** @description masked card number, once paid */
                    card_pan: string | null;
                    /** @description free text about the order */
                    description: string;
                    /**
                     * Format: uri
                     * @description where the customer returns
                     */
                    callback_url: string;
                    /**
                     * @description the merchant's own key-value data; up to 20 keys of 1–40 characters [A-Za-z0-9_-], string values up to 500 characters
                     * @example {
                     *       "order_id": "1042",
                     *       "customer": "c-77"
                     *     }
                     */
                    metadata: {
                        [key: string]: string;
                    };
                    /** @description why the payment failed, was canceled or expired */
                    failure: {
                        /**
                         * @description machine-readable reason
                         * @example card_declined
                         */
                        code: string;
                        /** @description human-readable reason */
                        message: string;
                    } | null;
                    /**
                     * Format: date-time
                     * @description creation time
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    created_at: string;
                    /** @description null until paid */
                    paid_at: string | null;
                    /** @description null until verified */
                    verified_at: string | null;
                    /** @description null until paid */
                    verify_deadline_at: string | null;
                    /**
                     * Format: date-time
                     * @description end of the period in which the payment page can be used
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    expires_at: string;
                    /**
                     * @description `not_applicable` for test payments
                     * @enum {string}
                     */
                    settlement_status: "not_applicable" | "pending" | "settled";
                    /** @description the PSP and terminal that took the payment (gave it its bank token; docs/psps/routing.md); null until the customer is sent to a bank, and on payments made before routing (which went to SEP) */
                    psp: {
                        /**
                         * @description the PSP (Shaparak payment service provider)
                         * @enum {string}
                         */
                        name: "sep" | "mellat" | "asanpardakht" | "parsian" | "sadad" | "pasargad" | "irankish" | "sepehr";
                        /**
                         * @description the gateway's terminal at that PSP
                         * @example 11223344
                         */
                        terminal_id: string;
                    } | null;
                    /**
                     * @description the protocol that created the payment: `api` (this API), or ZarinPal's or Zibal's (docs/COMPAT.md)
                     * @enum {string}
                     */
                    created_via: "api" | "zarinpal" | "zibal";
                    /**
                     * @description how it was paid: `card` (the hosted page and a PSP) or `direct_debit` (a debit of a mandate, no customer present: POST /api/v1/mandates/{id}/debits)
                     * @enum {string}
                     */
                    method: "card" | "direct_debit";
                    /** @description the only cards that may pay, masked (first six and last four digits); null when any card may */
                    allowed_cards: string[] | null;
                    /** @description the payer's national code the merchant named, masked; null when none */
                    national_code: string | null;
                    /** @description the payment link the customer paid on (docs/PAYMENTS.md#payment-links); null for a payment the merchant created */
                    payment_link: string | null;
                    /** @description the beneficiaries' shares (docs/PAYMENTS.md#split-settlement), on a payment created with `splits`: in the create answer, GET /payments/{id}, each entry of GET /payments and every `payment.*` event */
                    splits?: {
                        /** Format: uuid */
                        beneficiary_id: string;
                        /** @description the beneficiary's Sheba IBAN */
                        iban: string;
                        /** @description the share, in rials */
                        amount: number;
                        description: string;
                        /** @description taken back from the share by refunds */
                        refunded: number;
                        /** @description whether a settlement has paid the share out */
                        settled: boolean;
                    }[];
                };
                refund?: {
                    /**
                     * Format: uuid
                     * @description identifier of the refund
                     */
                    id: string;
                    /**
                     * Format: uuid
                     * @description the refunded payment
                     */
                    payment_id: string;
                    /**
                     * @description rials returned to the customer by this refund
                     * @example 500000
                     */
                    amount: number;
                    /**
                     * @description only forward: `awaiting_approval` (held until the gateway's operator approves it: an IBAN a person typed, or a refund the merchant's balance does not cover; see `held_for`), `awaiting_payer` (waiting for the customer to claim it at `claim_url` with the card that paid), `pending` (being paid out, until the bank answers), then `succeeded` or `failed` (a rejected refund is `failed` with `failure.code` `refund_rejected`). The amount is reserved on the payment from the first status on
                     * @enum {string}
                     */
                    status: "awaiting_approval" | "awaiting_payer" | "pending" | "succeeded" | "failed";
                    /** @description the merchant's reason, if given */
                    reason: string | null;
                    /**
                     * Format: date-time
                     * @description creation time
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    created_at: string;
                    /** @description null unless succeeded */
                    succeeded_at: string | null;
                    /** @description why the bank refused the refund; null unless failed */
                    failure: {
                        /**
                         * @description machine-readable reason
                         * @example card_declined
                         */
                        code: string;
                        /** @description human-readable reason */
                        message: string;
                    } | null;
                    /**
                     * @description how the refund reaches the customer, chosen by what the payment's PSP offers: `psp_refund` (the PSP's refund operation), `reversal` (the whole payment reversed at the PSP within its reversal window), `payer_card` (a bank transfer to the account of the card that paid, once the customer claims it at `claim_url` with that card), `iban_payout` (a bank transfer to `destination_iban`, a typed IBAN: paid only once the gateway's operator approves it)
                     * @enum {string}
                     */
                    method: "psp_refund" | "reversal" | "iban_payout" | "payer_card";
                    /** @description null until known */
                    destination_iban: string | null;
                    /** @description null unless the refund is paid to the payer's card */
                    owner_name?: string | null;
                    /** @description null unless held for approval */
                    held_for?: ("typed_iban" | "balance") | null;
                    /** @description null unless the refund is paid to the payer's card */
                    claim_url?: string | null;
                };
                webhook_endpoint?: {
                    /** Format: uuid */
                    id: string;
                    url: string;
                    /** @description subscribed event types; null: every type */
                    events: ("payment.created" | "payment.pending" | "payment.paid" | "payment.verified" | "payment.failed" | "payment.card_not_allowed" | "payment.canceled" | "payment.expired" | "payment.reversed" | "payment.partially_refunded" | "payment.refunded" | "refund.created" | "refund.succeeded" | "refund.failed" | "webhook_endpoint.disabled" | "settlement.paid" | "settlement.failed" | "beneficiary_payout.paid" | "beneficiary_payout.failed" | "mandate.active" | "mandate.declined" | "mandate.canceled" | "mandate.expired" | "subscription.created" | "subscription.charged" | "subscription.past_due" | "subscription.canceled")[] | null;
                    /** @enum {string} */
                    mode: "test" | "live";
                    /**
                     * @description `disabled` after the receiver answered 410 Gone or a delivery failed every attempt (a `webhook_endpoint.disabled` event); `POST …/enable` enables it again
                     * @enum {string}
                     */
                    status: "enabled" | "disabled";
                    disabled_reason: string | null;
                    /** @description null unless a rotation is in progress */
                    previous_secret_expires_at: string | null;
                    /**
                     * Format: date-time
                     * @description creation time
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    created_at: string;
                };
                settlement?: {
                    /**
                     * Format: uuid
                     * @description identifier of the settlement
                     */
                    id: string;
                    /**
                     * @description `pending` while the transfer is under way, then `paid` or `failed` (a failed one is paid again only by the operator)
                     * @enum {string}
                     */
                    status: "pending" | "paid" | "failed";
                    /**
                     * @description sum of the amounts of the payments it covers
                     * @example 9900000
                     */
                    gross: number;
                    /**
                     * @description sum of their fees
                     * @example 9900000
                     */
                    fees: number;
                    /**
                     * @description refunds it deducts, less refused refunds it gives back
                     * @example 9900000
                     */
                    refunds: number;
                    /**
                     * @description the beneficiaries' shares of its payments, each beneficiary paid by a transfer of its own (docs/PAYMENTS.md#split-settlement)
                     * @example 9900000
                     */
                    splits: number;
                    /**
                     * @description gross − fees − splits − refunds: what is transferred to the merchant's IBAN
                     * @example 9900000
                     */
                    net: number;
                    payment_count: number;
                    /** @description refunds (and refused refunds given back) it covers */
                    refund_count: number;
                    /** @description the Sheba IBAN it is paid to */
                    iban: string;
                    /**
                     * Format: date-time
                     * @description it covers payments verified at or before this time
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    cutoff_at: string;
                    /**
                     * Format: date-time
                     * @description creation time
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    created_at: string;
                    /** @description null unless paid */
                    paid_at: string | null;
                    /** @description why the bank refused the transfer; null unless failed */
                    failure: {
                        /**
                         * @description machine-readable reason
                         * @example card_declined
                         */
                        code: string;
                        /** @description human-readable reason */
                        message: string;
                    } | null;
                };
                beneficiary_payout?: {
                    /**
                     * Format: uuid
                     * @description the settlement that pays it
                     */
                    settlement_id: string;
                    /**
                     * Format: uuid
                     * @description the beneficiary paid
                     */
                    beneficiary_id: string;
                    /** @description the beneficiary's Sheba IBAN it is paid to */
                    iban: string;
                    /**
                     * @description the sum of the beneficiary's shares in the settlement
                     * @example 9900000
                     */
                    amount: number;
                    /**
                     * @description `pending` while the transfer is under way, then `paid` or `failed` (a failed one is paid again only by the operator)
                     * @enum {string}
                     */
                    status: "pending" | "paid" | "failed";
                    /** @description the transfer's attempt: 1, then one more for each operator retry after a refusal */
                    attempt: number;
                    /** @description the bank's reference of the transfer; null unless paid */
                    bank_reference: string | null;
                    /** @description why the bank refused the transfer; null unless failed */
                    failure: {
                        /**
                         * @description machine-readable reason
                         * @example card_declined
                         */
                        code: string;
                        /** @description human-readable reason */
                        message: string;
                    } | null;
                    /**
                     * Format: date-time
                     * @description when its state last changed
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    updated_at: string;
                };
                mandate?: {
                    id: string;
                    /** @constant */
                    object: "mandate";
                    /**
                     * @description test or live
                     * @enum {string}
                     */
                    mode: "test" | "live";
                    /** @description the direct debit provider, e.g. zarinpal */
                    provider: string;
                    /**
                     * @description pending, active, declined, canceled or expired
                     * @enum {string}
                     */
                    status: "pending" | "active" | "declined" | "canceled" | "expired";
                    /** @description the customer's mobile, masked */
                    mobile: string;
                    max_amount: number;
                    max_daily_count: number;
                    max_monthly_count: number;
                    /**
                     * Format: date-time
                     * @description when the mandate ends
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    expires_at: string;
                    return_url: string;
                    reference: string;
                    /** @description why a mandate was declined; null otherwise */
                    failure_code: string | null;
                    /** @description the bank the customer chose to sign at, on the gateway's bank page; null before a choice (and for mandates signed before banks were recorded) */
                    bank: {
                        /**
                         * @description the bank's code as the provider lists it
                         * @example SABCIR
                         */
                        code: string;
                        /**
                         * @description the bank's name as the provider gave it
                         * @example بانک سامان
                         */
                        name: string;
                    } | null;
                    /**
                     * Format: date-time
                     * @description when the mandate was asked
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    created_at: string;
                    /** @description null until signed */
                    activated_at: string | null;
                    /** @description null while pending or active */
                    ended_at: string | null;
                };
                subscription?: {
                    /** Format: uuid */
                    id: string;
                    /** @constant */
                    object: "subscription";
                    /**
                     * @description test or live
                     * @enum {string}
                     */
                    mode: "test" | "live";
                    /** Format: uuid */
                    plan_id: string;
                    /** Format: uuid */
                    mandate_id: string;
                    /**
                     * @description active, past_due or canceled
                     * @enum {string}
                     */
                    status: "active" | "past_due" | "canceled";
                    /** @description rials charged each period (the plan's, when subscribed) */
                    amount: number;
                    /** @description the period being charged or paid, from 0 */
                    current_period: number;
                    /**
                     * Format: date-time
                     * @description the current period's start, on the subscription's clock
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    current_period_start: string;
                    /**
                     * Format: date-time
                     * @description the current period's end: the next period's start
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    current_period_end: string;
                    cancel_at_period_end: boolean;
                    /** @description the current period's failed charges */
                    failed_attempts: number;
                    /** @description the last charge's payment; null before the first */
                    latest_payment_id: string | null;
                    /** @description null unless canceled */
                    cancel_reason: string | null;
                    /**
                     * Format: date-time
                     * @description when the subscription was made
                     * @example 2026-11-21T10:15:30.123Z
                     */
                    created_at: string;
                    /** @description null unless canceled */
                    canceled_at: string | null;
                    /**
                     * Format: uri
                     * @description the customer's own page of the subscription, a signed link to pass on to the customer (by the merchant's own channel: the gateway keeps no customer contact): the plan, the next charge, the mandate's bank, and a cancel at the period's end
                     */
                    customer_url: string;
                };
                /**
                 * Format: uuid
                 * @description subscription.charged and .past_due: the charge's payment
                 */
                payment_id?: string;
            };
        };
        WebhookAttempt: {
            /** Format: uuid */
            endpoint_id: string;
            /** @description the first delivery, or a redelivery */
            delivery_id: string;
            /** @description attempt number within its delivery */
            attempt: number;
            /**
             * Format: date-time
             * @description when the request was sent
             * @example 2026-11-21T10:15:30.123Z
             */
            attempted_at: string;
            /** @description the receiver's HTTP status; null when none came */
            response_status: number | null;
            latency_ms: number;
            /** @description why the attempt failed, as a class only (the connection error itself stays in the gateway's logs): `timeout` (no answer within the time limit), `connection_failed` (no connection, or it broke), `tls_error` (the TLS handshake or certificate check failed), `http_status` (the receiver answered outside 2xx: see response_status), `address_refused` (the URL now resolves to an address the gateway does not send to); null when it succeeded */
            error: ("timeout" | "connection_failed" | "tls_error" | "http_status" | "address_refused") | null;
            /** @description true for a 2xx answer */
            succeeded: boolean;
        };
        Error: {
            /**
             * @description machine-readable error code
             * @example validation_failed
             */
            code: string;
            /** @description human-readable explanation */
            message: string;
            /** @description the X-Request-Id of the response */
            request_id: string;
            /** @description what is wrong with which field, for validation errors */
            details?: {
                path: string;
                message: string;
            }[];
        };
    };
    responses: never;
    parameters: {
        /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Identifies this request and response; quote it to support. */
        "X-Request-Id": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description Requests the key may make in the current window (the tighter of the key's and, on test-mode creates, the merchant's per-minute quota). */
        "RateLimit-Limit": number;
        /** @description Requests left in the current window. */
        "RateLimit-Remaining": number;
        /** @description Seconds until the window resets. */
        "RateLimit-Reset": number;
        /** @description `true` when this response replays an earlier one for the same Idempotency-Key. */
        "Idempotent-Replayed": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPayments: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description one status or a comma-separated list of them (any of), e.g. `paid,verified`; statuses: created, pending, paid, verified, failed, canceled, expired, reversed, partially_refunded, refunded */
                status?: string;
                /** @description the merchant's order reference, exactly */
                merchant_reference?: string;
                /** @description the tracking code shown to the customer (12 digits) */
                tracking_code?: string;
                /** @description the bank's retrieval reference number (12 digits) */
                rrn?: string;
                /** @description amount in rials at least this */
                amount_gte?: number;
                /** @description amount in rials at most this */
                amount_lte?: number;
                /** @description created at or after */
                created_gte?: string;
                /** @description created before */
                created_lt?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payments. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Payment"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 1500000,
                 *       "callback_url": "https://shop.example/checkout/return?order=1042",
                 *       "merchant_reference": "order-1042",
                 *       "description": "Two notebooks",
                 *       "mobile": "09121234567",
                 *       "metadata": {
                 *         "order_id": "1042"
                 *       },
                 *       "fee_payer": "merchant"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description amount to charge, in rials
                     * @example 1500000
                     */
                    amount: number;
                    /**
                     * Format: uri
                     * @description absolute https URL on one of the merchant's registered domains (http allowed for localhost in test mode)
                     * @example https://shop.example/checkout/return?order=1042
                     */
                    callback_url: string;
                    /**
                     * @description the merchant's order reference
                     * @example order-1042
                     */
                    merchant_reference: string;
                    /**
                     * @description free text about the order
                     * @example Two notebooks
                     */
                    description?: string;
                    /**
                     * @description customer's mobile number
                     * @example 09121234567
                     */
                    mobile?: string;
                    /**
                     * @description the merchant's own key-value data; up to 20 keys of 1–40 characters [A-Za-z0-9_-], string values up to 500 characters
                     * @example {
                     *       "order_id": "1042",
                     *       "customer": "c-77"
                     *     }
                     */
                    metadata?: {
                        [key: string]: string;
                    };
                    /**
                     * @description who pays the gateway's fee: `merchant` (taken from the amount at verify) or `customer` (added to the amount the bank charges)
                     * @enum {string}
                     */
                    fee_payer?: "merchant" | "customer";
                    /**
                     * @description only these cards may pay (up to 5); a payment paid with another is reversed at the bank and fails with `card_not_allowed`. Stored hashed and masked, never in full (docs/PAYMENTS.md#who-may-pay-cards-and-national-code)
                     * @example [
                     *       "6037991234567893"
                     *     ]
                     */
                    allowed_cards?: string[];
                    /**
                     * @description the account holder's national code (10 digits, valid check digit); stored masked; enforced only by PSPs that take one (none of the current connectors do)
                     * @example 0499370899
                     */
                    national_code?: string;
                    /** @description up to 10 shares for the merchant's approved beneficiaries, paid to their IBANs at settlement; their sum may not exceed the amount less the fee (docs/PAYMENTS.md#split-settlement) */
                    splits?: {
                        /**
                         * @description a Sheba IBAN: IR and 24 digits whose ISO 13616 check digits hold (spaces and Persian digits are accepted and normalised)
                         * @example IR820540102680020817909002
                         */
                        iban: string;
                        /**
                         * @description the beneficiary's share, in rials
                         * @example 300000
                         */
                        amount: number;
                        /**
                         * @description what the share is for
                         * @example agency commission
                         */
                        description?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The payment was created (or replayed for the same Idempotency-Key). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                        /**
                         * Format: uri
                         * @description the hosted payment page; send the customer here
                         */
                        payment_url: string;
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `idempotency_key_in_use` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `callback_url_not_allowed`, `callback_domain_unverified`, `split_exceeds_amount`, `beneficiary_not_approved`, `charged_amount_exceeds_max`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewFee: {
        parameters: {
            query: {
                /** @description the payment amount in rials */
                amount: number;
                /** @description who pays the gateway's fee: `merchant` (taken from the amount at verify) or `customer` (added to the amount the bank charges) */
                fee_payer?: "merchant" | "customer";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The split of the amount. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "amount": 1500000,
                     *       "fee_payer": "customer",
                     *       "fee": 15000,
                     *       "charged_amount": 1515000,
                     *       "merchant_receives": 1500000
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description the payment amount in rials (what verify checks)
                         * @example 1500000
                         */
                        amount: number;
                        /**
                         * @description who pays the gateway's fee: `merchant` (taken from the amount at verify) or `customer` (added to the amount the bank charges)
                         * @enum {string}
                         */
                        fee_payer: "merchant" | "customer";
                        /**
                         * @description the gateway's fee in rials under your fee plan
                         * @example 15000
                         */
                        fee: number;
                        /**
                         * @description rials the customer will be charged at the bank
                         * @example 1515000
                         */
                        charged_amount: number;
                        /**
                         * @description rials the payment adds to your balance at verify (before any refund)
                         * @example 1500000
                         */
                        merchant_receives: number;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `charged_amount_exceeds_max` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "metadata": {
                 *         "shipment": "SH-77",
                 *         "coupon": null
                 *       }
                 *     }
                 */
                "application/json": {
                    /**
                     * @description keys to set (a string) or remove (null); keys not named stay as they are
                     * @example {
                     *       "order_id": "1042",
                     *       "customer": "c-77"
                     *     }
                     */
                    metadata: {
                        [key: string]: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description The payment with its new metadata. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The canceled payment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_cancelable` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reversePayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reversed payment. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_reversible` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    simulateBankOutcome: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "outcome": "success"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description what the customer chooses on the simulated bank page
                     * @enum {string}
                     */
                    outcome: "success" | "failure" | "cancel" | "delay";
                };
            };
        };
        responses: {
            /** @description The payment after the outcome. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled`, `test_mode_only` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    advancePaymentClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "seconds": 1800
                 *     }
                 */
                "application/json": {
                    /**
                     * @description seconds to move this payment's clock forward; its timers that fall due fire at once
                     * @example 1800
                     */
                    seconds: number;
                };
            };
        };
        responses: {
            /** @description The payment after its due timers fired. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled`, `test_mode_only` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `test_clock_unavailable` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 1500000
                 *     }
                 */
                "application/json": {
                    /**
                     * @description the order amount in rials that the merchant expects
                     * @example 1500000
                     */
                    amount: number;
                };
            };
        };
        responses: {
            /** @description The payment is verified. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_paid`, `payment_pending`, `verify_deadline_passed` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `amount_mismatch` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPaymentRefunds: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of refunds. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Refund"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description identifier of the payment */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "amount": 500000,
                 *       "reason": "One notebook returned",
                 *       "destination_iban": "IR820540102680020817909002"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description rials to refund; default: everything not yet refunded
                     * @example 500000
                     */
                    amount?: number;
                    /**
                     * @description free text kept with the refund
                     * @example Item out of stock
                     */
                    reason?: string;
                    /**
                     * @description a Sheba IBAN (IR and 24 digits, its ISO 13616 check must hold) to pay the refund to by bank transfer when the payment's PSP cannot refund it itself (a PSP without a refund operation, outside its reversal window, a payment its PSP settled, or part of the payment: docs/PAYMENTS.md#how-a-refund-is-paid-out). A typed IBAN is never paid on a key's word: the refund is held `awaiting_approval` until the gateway's operator approves it. Without it such a refund goes to the card that paid (`payer_card`, claimed by the customer at `claim_url`)
                     * @example IR820540102680020817909002
                     */
                    destination_iban?: string;
                };
            };
        };
        responses: {
            /** @description The refund is recorded (or replayed for the same Idempotency-Key). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        refund: components["schemas"]["Refund"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled`, `insufficient_scope` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_not_refundable`, `idempotency_key_in_use` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `refund_exceeds_amount`, `refund_needs_iban`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRefunds: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description only refunds in this status */
                status?: "awaiting_approval" | "awaiting_payer" | "pending" | "succeeded" | "failed";
                /** @description only the refunds of this payment */
                payment_id?: string;
                /** @description created at or after */
                created_gte?: string;
                /** @description created before */
                created_lt?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of refunds. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Refund"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRefund: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the refund */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The refund. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        refund: components["schemas"]["Refund"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `refund_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPaymentLinks: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payment links. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentLink"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPaymentLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "title": "Handmade notebook",
                 *       "amount": 1500000,
                 *       "collect": {
                 *         "name": "required",
                 *         "mobile": "optional"
                 *       },
                 *       "max_payments": 10
                 *     }
                 */
                "application/json": {
                    /**
                     * @description what is sold
                     * @example Handmade notebook
                     */
                    title: string;
                    /** @description more about it */
                    description?: string;
                    /**
                     * @description a fixed amount in rials; give it, or min_amount and max_amount
                     * @example 1500000
                     */
                    amount?: number;
                    /**
                     * @description the least the customer may pay (with max_amount)
                     * @example 1500000
                     */
                    min_amount?: number;
                    /**
                     * @description the most the customer may pay (with min_amount)
                     * @example 1500000
                     */
                    max_amount?: number;
                    /** @description the fields the link page asks the customer for; they land in the payment metadata as `link_name`, `link_mobile`, `link_note` */
                    collect?: {
                        /**
                         * @description ask the customer for their name: `optional` or `required`; absent: not asked
                         * @enum {string}
                         */
                        name?: "optional" | "required";
                        /**
                         * @description ask the customer for their mobile: `optional` or `required`; absent: not asked
                         * @enum {string}
                         */
                        mobile?: "optional" | "required";
                        /**
                         * @description ask the customer for their note: `optional` or `required`; absent: not asked
                         * @enum {string}
                         */
                        note?: "optional" | "required";
                    };
                    /**
                     * Format: date-time
                     * @description the link takes no payment after this (must be in the future)
                     */
                    expires_at?: string;
                    /** @description how many payments the link takes */
                    max_payments?: number;
                };
            };
        };
        responses: {
            /** @description The link is created (or replayed for the same Idempotency-Key). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment_link: components["schemas"]["PaymentLink"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `idempotency_key_in_use` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment link */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment link. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment_link: components["schemas"]["PaymentLink"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_link_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deactivatePaymentLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the payment link */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deactivated link. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        payment_link: components["schemas"]["PaymentLink"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payment_link_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMandates: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of mandates. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Mandate"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMandate: {
        parameters: {
            query?: never;
            header?: {
                /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "mobile": "09121234567",
                 *       "max_amount": 5000000,
                 *       "max_daily_count": 1,
                 *       "max_monthly_count": 4,
                 *       "expires_at": "2027-12-01T00:00:00Z",
                 *       "return_url": "https://shop.example/mandate-done",
                 *       "reference": "plan-gold"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description the customer's mobile
                     * @example 09121234567
                     */
                    mobile: string;
                    /** @description the customer's national code (sent to the provider) */
                    national_code?: string;
                    /** @description the largest single debit, in rials */
                    max_amount: number;
                    /** @description debits allowed per Tehran day */
                    max_daily_count: number;
                    /** @description debits allowed per Tehran month */
                    max_monthly_count: number;
                    /**
                     * Format: date-time
                     * @description when the mandate ends: at least 30 days and at most five years from now
                     */
                    expires_at: string;
                    /**
                     * Format: uri
                     * @description where the customer is sent after signing (or refusing) at the bank
                     */
                    return_url: string;
                    /** @description the merchant's own reference */
                    reference?: string;
                };
            };
        };
        responses: {
            /** @description The mandate is asked (or replayed for the same Idempotency-Key). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mandate: components["schemas"]["Mandate"];
                        /** @description the hosted page where the customer picks a bank and signs (while pending) */
                        bank_page_url?: string;
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `direct_debit_not_configured`, `idempotency_key_in_use` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `callback_url_not_allowed`, `callback_domain_unverified`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMandate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the mandate */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mandate. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mandate: components["schemas"]["Mandate"];
                        /** @description the hosted page where the customer picks a bank and signs (while pending) */
                        bank_page_url?: string;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `mandate_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelMandate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the mandate */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mandate after the cancel. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        mandate: components["schemas"]["Mandate"];
                        /** @description the hosted page where the customer picks a bank and signs (while pending) */
                        bank_page_url?: string;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `mandate_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDebit: {
        parameters: {
            query?: never;
            header?: {
                /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description identifier of the mandate */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount": 1500000,
                 *       "merchant_reference": "invoice-2025-07",
                 *       "description": "July"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description rials to take; at most the mandate's max_amount
                     * @example 1500000
                     */
                    amount: number;
                    /**
                     * @description the merchant's order (or invoice) reference, the payment's merchant_reference
                     * @example invoice-2025-07
                     */
                    merchant_reference: string;
                    /** @description free text about the debit */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description The debit is admitted (or replayed for the same Idempotency-Key); its payment is `created`. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        debit: {
                            /**
                             * Format: uuid
                             * @description identifier of the debit
                             */
                            id: string;
                            /** @constant */
                            object: "debit";
                            /** Format: uuid */
                            mandate_id: string;
                            /**
                             * Format: uuid
                             * @description the payment the debit is (method `direct_debit`)
                             */
                            payment_id: string;
                            /** @description rials asked */
                            amount: number;
                            merchant_reference: string;
                            /**
                             * Format: date-time
                             * @description when the debit was admitted
                             * @example 2026-11-21T10:15:30.123Z
                             */
                            created_at: string;
                        };
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `mandate_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `mandate_not_active`, `direct_debit_not_configured`, `idempotency_key_in_use` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `mandate_limit_exceeded`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlans: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of plans. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Plan"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "Monthly",
                 *       "amount": 1500000,
                 *       "interval": "month"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description the plan's name
                     * @example Monthly
                     */
                    name: string;
                    /**
                     * @description rials charged each period
                     * @example 1500000
                     */
                    amount: number;
                    /**
                     * @description week, month, year, or a number of days (`days`)
                     * @enum {string}
                     */
                    interval: "week" | "month" | "year" | "days";
                    /** @description the period in days; required with `interval: days`, refused with any other */
                    interval_days?: number;
                };
            };
        };
        responses: {
            /** @description The plan (or the same one for the same Idempotency-Key). */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plan: components["schemas"]["Plan"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `idempotency_key_in_use` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the plan */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plan: components["schemas"]["Plan"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `plan_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of subscriptions. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Subscription"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description One key per logical operation (1–255 printable ASCII characters), kept 24 h per merchant and mode. The same key and body replay the first response; another body is 422 `idempotency_key_reused`; while the first request runs it is 409 `idempotency_key_in_use`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "plan_id": "0d6f2f8e-3c1a-4b7e-9f2d-5a6b7c8d9e0f",
                 *       "mandate_id": "5b1e7c2a-8d4f-4e3b-a6c9-1f2e3d4c5b6a"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: uuid
                     * @description the plan to charge
                     */
                    plan_id: string;
                    /**
                     * Format: uuid
                     * @description an active mandate of the merchant whose max_amount is at least the plan's amount
                     */
                    mandate_id: string;
                };
            };
        };
        responses: {
            /** @description The subscription (or the same one for the same Idempotency-Key); its first charge is under way. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `plan_not_found`, `mandate_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `mandate_not_active`, `idempotency_key_in_use` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed`, `mandate_limit_exceeded`, `idempotency_key_reused` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the subscription */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `subscription_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the subscription */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "at_period_end": true
                 *     }
                 */
                "application/json": {
                    /** @description true: no charge after the current period, which stays paid; false: canceled now */
                    at_period_end: boolean;
                };
            };
        };
        responses: {
            /** @description The subscription after the cancel. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `subscription_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    advanceSubscriptionClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the subscription */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "seconds": 2678400
                 *     }
                 */
                "application/json": {
                    /**
                     * @description seconds to move this payment's clock forward; its timers that fall due fire at once
                     * @example 1800
                     */
                    seconds: number;
                };
            };
        };
        responses: {
            /** @description The subscription after its due charges. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled`, `test_mode_only` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `subscription_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The balance. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        balance: {
                            /**
                             * @description the mode of the key that asked: each mode has its own balance
                             * @enum {string}
                             */
                            mode: "test" | "live";
                            /**
                             * @description what the next settlement would pay out now: payments verified longer ago than the hold, less fees and refunds not yet settled (may be negative: carried, never paid out)
                             * @example 9900000
                             */
                            available: number;
                            /**
                             * @description the rest of the balance: verified payments still within the hold, less their fees and refunds
                             * @example 9900000
                             */
                            pending: number;
                            /**
                             * @description paid by customers and not yet verified
                             * @example 9900000
                             */
                            held: number;
                            /**
                             * @description settlements made and not yet paid to the IBAN
                             * @example 9900000
                             */
                            in_payout: number;
                        };
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSettlements: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description only settlements in this status */
                status?: "pending" | "paid" | "failed";
                /** @description created at or after */
                created_gte?: string;
                /** @description created before */
                created_lt?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of settlements. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Settlement"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettlement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the settlement */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settlement and its lines. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        settlement: components["schemas"]["Settlement"];
                        lines: {
                            /**
                             * @description a payment, a refund (deducted), a refused refund given back, or a beneficiary's share of a payment (deducted, paid to its IBAN)
                             * @enum {string}
                             */
                            kind: "payment" | "refund" | "refund_return" | "split";
                            /**
                             * Format: uuid
                             * @description the payment, the refund, or the share
                             */
                            object_id: string;
                            /** Format: uuid */
                            payment_id: string;
                            /**
                             * @description signed: a payment's amount, a refund's amount negated, a refused refund's amount, a share negated
                             * @example 9900000
                             */
                            amount: number;
                            /**
                             * @description the payment's fee on a payment line, else 0
                             * @example 9900000
                             */
                            fee: number;
                            /**
                             * @description amount − fee
                             * @example 9900000
                             */
                            net: number;
                            /** @description the beneficiary's IBAN on a split line; null otherwise */
                            iban: string | null;
                        }[];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `settlement_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettlementLines: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the settlement */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV file. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /**
                     * @description attachment; the file name names the settlement
                     * @example attachment; filename="settlement-0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71.csv"
                     */
                    "Content-Disposition"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example kind,object_id,payment_id,amount,fee,net,iban
                     *     payment,0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,1500000,15000,1485000,
                     */
                    "text/csv": string;
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `settlement_not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBeneficiaries: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The beneficiaries. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            iban: string;
                            name: string;
                            /**
                             * @description `pending` until the operator reviews it; only an `approved` beneficiary may be split to; `revoked` when the operator withdrew an approved one (no later split may name it)
                             * @enum {string}
                             */
                            status: "pending" | "approved" | "rejected" | "revoked";
                            /** @description why the operator rejected it; null unless rejected */
                            reason: string | null;
                            /**
                             * Format: date-time
                             * @description when the merchant registered it
                             * @example 2026-11-21T10:15:30.123Z
                             */
                            created_at: string;
                            /** @description null while pending */
                            reviewed_at: string | null;
                        }[];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createBeneficiary: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description a Sheba IBAN: IR and 24 digits whose ISO 13616 check digits hold (spaces and Persian digits are accepted and normalised)
                     * @example IR820540102680020817909002
                     */
                    iban: string;
                    /**
                     * @description the account holder's name
                     * @example Agency Sepehr
                     */
                    name: string;
                };
            };
        };
        responses: {
            /** @description The IBAN was registered before: that beneficiary, as it stands. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        beneficiary: {
                            /** Format: uuid */
                            id: string;
                            iban: string;
                            name: string;
                            /**
                             * @description `pending` until the operator reviews it; only an `approved` beneficiary may be split to; `revoked` when the operator withdrew an approved one (no later split may name it)
                             * @enum {string}
                             */
                            status: "pending" | "approved" | "rejected" | "revoked";
                            /** @description why the operator rejected it; null unless rejected */
                            reason: string | null;
                            /**
                             * Format: date-time
                             * @description when the merchant registered it
                             * @example 2026-11-21T10:15:30.123Z
                             */
                            created_at: string;
                            /** @description null while pending */
                            reviewed_at: string | null;
                        };
                    };
                };
            };
            /** @description The beneficiary, pending review. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        beneficiary: {
                            /** Format: uuid */
                            id: string;
                            iban: string;
                            name: string;
                            /**
                             * @description `pending` until the operator reviews it; only an `approved` beneficiary may be split to; `revoked` when the operator withdrew an approved one (no later split may name it)
                             * @enum {string}
                             */
                            status: "pending" | "approved" | "rejected" | "revoked";
                            /** @description why the operator rejected it; null unless rejected */
                            reason: string | null;
                            /**
                             * Format: date-time
                             * @description when the merchant registered it
                             * @example 2026-11-21T10:15:30.123Z
                             */
                            created_at: string;
                            /** @description null while pending */
                            reviewed_at: string | null;
                        };
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled`, `live_mode_only` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentsReport: {
        parameters: {
            query: {
                /** @description payments created at or after this instant */
                created_gte: string;
                /** @description payments created before this instant; at most 366 days after created_gte */
                created_lt: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV file. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /**
                     * @description attachment; the file name names the range
                     * @example attachment; filename="payments-20261101T000000Z-20261201T000000Z.csv"
                     */
                    "Content-Disposition"?: string;
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example id,created_at,status,mode,amount,fee,refunded_amount,currency,merchant_reference,tracking_code,reference_id,rrn,card_pan,paid_at,verified_at,settlement_status,metadata,fee_payer,charged_amount,splits_amount,merchant_receives
                     *     0b6f3c1e-4f2a-4c55-9a7e-2f1d0c9b8a71,2026-11-21T10:15:30.123Z,verified,live,1500000,15000,0,IRR,order-1042,482910375561,938475610,403912775810,603799******1234,2026-11-21T10:16:02.481Z,2026-11-21T10:16:05.007Z,pending,{},merchant,1500000,0,1485000
                     */
                    "text/csv": string;
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEndpoint"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://shop.example/webhooks/dargah",
                 *       "events": [
                 *         "payment.paid",
                 *         "payment.verified"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /**
                     * @description where deliveries are POSTed: https on a public address (test mode also allows http://localhost)
                     * @example https://shop.example/webhooks/dargah
                     */
                    url: string;
                    /** @description event types to receive; omit to receive every type */
                    events?: ("payment.created" | "payment.pending" | "payment.paid" | "payment.verified" | "payment.failed" | "payment.card_not_allowed" | "payment.canceled" | "payment.expired" | "payment.reversed" | "payment.partially_refunded" | "payment.refunded" | "refund.created" | "refund.succeeded" | "refund.failed" | "webhook_endpoint.disabled" | "settlement.paid" | "settlement.failed" | "beneficiary_payout.paid" | "beneficiary_payout.failed" | "mandate.active" | "mandate.declined" | "mandate.canceled" | "mandate.expired" | "subscription.created" | "subscription.charged" | "subscription.past_due" | "subscription.canceled")[];
                };
            };
        };
        responses: {
            /** @description The endpoint and its signing secret. */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook_endpoint: components["schemas"]["WebhookEndpoint"];
                        /** @description signing secret, shown only in this response */
                        secret: string;
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint is deleted; nothing more is sent to it. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        id: string;
                        /** @constant */
                        deleted: true;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, enabled. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook_endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the webhook endpoint */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description seconds the old secret keeps signing deliveries (default: the server setting, 24 h) */
                    previous_secret_expires_in?: number;
                };
            };
        };
        responses: {
            /** @description The endpoint and its new signing secret. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        webhook_endpoint: components["schemas"]["WebhookEndpoint"];
                        /** @description signing secret, shown only in this response */
                        secret: string;
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description page size */
                limit?: number;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description kind of event */
                type?: "payment.created" | "payment.pending" | "payment.paid" | "payment.verified" | "payment.failed" | "payment.card_not_allowed" | "payment.canceled" | "payment.expired" | "payment.reversed" | "payment.partially_refunded" | "payment.refunded" | "refund.created" | "refund.succeeded" | "refund.failed" | "webhook_endpoint.disabled" | "settlement.paid" | "settlement.failed" | "beneficiary_payout.paid" | "beneficiary_payout.failed" | "mandate.active" | "mandate.declined" | "mandate.canceled" | "mandate.expired" | "subscription.created" | "subscription.charged" | "subscription.past_due" | "subscription.canceled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events, newest first. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Event"][];
                        has_more: boolean;
                        /** @description pass as `cursor` to get the next page */
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the event */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event and every delivery attempt. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event: components["schemas"]["Event"];
                        attempts: components["schemas"]["WebhookAttempt"][];
                    };
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description identifier of the event */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description only to this endpoint; default: every subscribed, enabled endpoint
                     */
                    endpoint_id?: string;
                };
            };
        };
        responses: {
            /** @description Deliveries started. */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_id: string;
                        deliveries: {
                            /** Format: uuid */
                            endpoint_id: string;
                            delivery_id: string;
                        }[];
                    };
                };
            };
            /** @description Error: `invalid_json` */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `missing_api_key`, `invalid_api_key` */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `live_mode_not_enabled` */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `not_found` */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `payload_too_large` */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `unsupported_media_type` */
            415: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `validation_failed` */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `rate_limited` */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `internal_error` */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Error: `service_unavailable` */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document of this API. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is up. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ready";
                        checks: {
                            mysql: {
                                ok: boolean;
                                error?: string;
                            };
                            temporal: {
                                ok: boolean;
                                error?: string;
                            };
                        };
                    };
                };
            };
            /** @description A dependency is unreachable. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        code: "service_unavailable";
                        message: string;
                        request_id: string;
                        checks: {
                            mysql: {
                                ok: boolean;
                                error?: string;
                            };
                            temporal: {
                                ok: boolean;
                                error?: string;
                            };
                        };
                    };
                };
            };
        };
    };
    paymentCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.created";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentPendingWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.pending";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentPaidWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.paid";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentVerifiedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.verified";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentFailedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.failed";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentCardNotAllowedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.card_not_allowed";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentCanceledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.canceled";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentExpiredWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.expired";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentReversedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.reversed";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentPartiallyRefundedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.partially_refunded";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    paymentRefundedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "payment.refunded";
                    data?: {
                        payment: components["schemas"]["Payment"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "refund.created";
                    data?: {
                        refund: components["schemas"]["Refund"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundSucceededWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "refund.succeeded";
                    data?: {
                        refund: components["schemas"]["Refund"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    refundFailedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "refund.failed";
                    data?: {
                        refund: components["schemas"]["Refund"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookEndpointDisabledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "webhook_endpoint.disabled";
                    data?: {
                        webhook_endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    settlementPaidWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "settlement.paid";
                    data?: {
                        settlement: components["schemas"]["Settlement"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    settlementFailedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "settlement.failed";
                    data?: {
                        settlement: components["schemas"]["Settlement"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    beneficiaryPayoutPaidWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "beneficiary_payout.paid";
                    data?: {
                        beneficiary_payout: components["schemas"]["BeneficiaryPayout"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    beneficiaryPayoutFailedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "beneficiary_payout.failed";
                    data?: {
                        beneficiary_payout: components["schemas"]["BeneficiaryPayout"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mandateActiveWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "mandate.active";
                    data?: {
                        mandate: components["schemas"]["Mandate"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mandateDeclinedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "mandate.declined";
                    data?: {
                        mandate: components["schemas"]["Mandate"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mandateCanceledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "mandate.canceled";
                    data?: {
                        mandate: components["schemas"]["Mandate"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    mandateExpiredWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "mandate.expired";
                    data?: {
                        mandate: components["schemas"]["Mandate"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionCreatedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "subscription.created";
                    data?: {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionChargedWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "subscription.charged";
                    data?: {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionPastDueWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "subscription.past_due";
                    data?: {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    subscriptionCanceledWebhook: {
        parameters: {
            query?: never;
            header: {
                /** @description the event id; the same on every attempt: use it to ignore duplicates */
                "webhook-id": string;
                /** @description Unix seconds when this attempt was signed; refuse one older than 5 minutes */
                "webhook-timestamp": number;
                /** @description `v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`, space-separated when two secrets sign during a rotation; compare in constant time */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Event"] & {
                    /** @constant */
                    type?: "subscription.canceled";
                    data?: {
                        subscription: components["schemas"]["Subscription"];
                    };
                };
            };
        };
        responses: {
            /** @description Received; any 2xx counts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
