package payments

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// The placeholders of a gateway address template (spec: payment flow
// step 1).
const (
	PlaceholderLanguage    = "#LANGUAGE#"
	PlaceholderEshopID     = "#ESHOP_ID#"
	PlaceholderEshopURL    = "#ESHOP_URL#"
	PlaceholderPaymentCode = "#PAYMENT_CODE#"
)

// CheckTemplate validates a gateway address template: an absolute http(s)
// address holding #PAYMENT_CODE# and #ESHOP_ID# or #ESHOP_URL#
// (#LANGUAGE# is optional: the add-on can read the language from the
// e-shop info).
func CheckTemplate(tpl string) error {
	probe := strings.NewReplacer(PlaceholderLanguage, "cs", PlaceholderEshopID, "1", PlaceholderEshopURL, "x", PlaceholderPaymentCode, "x").Replace(tpl)
	u, err := url.Parse(probe)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("gateway address %q is not an absolute http(s) address", tpl)
	}
	if !strings.Contains(tpl, PlaceholderPaymentCode) {
		return fmt.Errorf("gateway address %q lacks %s (the transaction's one-time code)", tpl, PlaceholderPaymentCode)
	}
	if !strings.Contains(tpl, PlaceholderEshopID) && !strings.Contains(tpl, PlaceholderEshopURL) {
		return fmt.Errorf("gateway address %q lacks %s or %s", tpl, PlaceholderEshopID, PlaceholderEshopURL)
	}
	return nil
}

// Fill replaces a template's placeholders with the real values, each
// escaped for use in a query string.
func Fill(tpl, language string, eshopID int, eshopURL, paymentCode string) string {
	return strings.NewReplacer(
		PlaceholderLanguage, url.QueryEscape(language),
		PlaceholderEshopID, strconv.Itoa(eshopID),
		PlaceholderEshopURL, url.QueryEscape(eshopURL),
		PlaceholderPaymentCode, url.QueryEscape(paymentCode),
	).Replace(tpl)
}

// Gateway returns the address template registered for an add-on of an
// e-shop ("" when none).
func Gateway(tx *store.Tx, eshopID int, addon string) string {
	if addon == "" {
		return ""
	}
	a, err := auth.GetAddon(tx, eshopID, addon)
	if err != nil {
		return ""
	}
	return a.PaymentGateway
}
