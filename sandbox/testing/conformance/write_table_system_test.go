package conformance

// systemWrites: webhooks, the signature key, files.
func systemWrites(f *fx) []*wentry {
	const (
		noWebhookEvents = "webhook registrations emit no events"
		noSystemLog     = "the reference has no change list of webhooks or files"
	)
	return []*wentry{
		w("RegisterNewWebhook").str("0.event", "brand:create", "0.url", "{inbox}/hooks").
			keep("hook=data.webhooks.0.id").
			showsFrom("data.0", "/api/webhooks/{hook}", "data.webhook").quiet(noWebhookEvents).unlogged(noSystemLog),
		w("UpdateExistingWebhook", "id", "{hook}").str("url", "{inbox}/hooks-changed").shows("/api/webhooks/{hook}", "data.webhook").
			quiet(noWebhookEvents).unlogged(noSystemLog),
		w("GenerateWebhookSignatureKey").shows("/api/webhooks", "data", "data.webhooks.#>0").
			says("the key signs the next notifications (sandbox/shop/webhooks tests check signatures)").
			quiet(noWebhookEvents).unlogged(noSystemLog),
		w("DeleteRegisteredWebhook", "id", "{hook}").gone("/api/webhooks/{hook}", "").quiet(noWebhookEvents).unlogged(noSystemLog),

		w("UploadFile").str("name", "wc-upload.png", "sourceUrl", pngURL).
			shows("/api/system/files", `data.images.#(name=="wc-upload.png")`).
			differs("sourceUrl", "the file is stored under its name; the source address is not kept").
			quiet("the reference has no file events").unlogged(noSystemLog),
		w("UploadFiles").str("0.name", "wc-uploads.png", "0.sourceUrl", pngURL).
			showsFrom("data.0", "/api/system/files", `data.images.#(name=="wc-uploads.png")`).
			differs("sourceUrl", "the file is stored under its name; the source address is not kept").
			quiet("the reference has no file events beyond job:finished").unlogged(noSystemLog),
	}
}
