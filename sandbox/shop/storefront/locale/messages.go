// Package locale holds what the buyer-facing side of an e-shop says in
// each language: the storefront pages' texts, the outbox e-mails, and
// prices written the way the e-shop's currency displays them. One table
// per language keeps a page or an e-mail from mixing languages: everything
// on it comes from the table of the e-shop's default language.
package locale

import "strings"

// Messages is one language's texts. Texts with %s take the values named
// in their comment, in that order.
type Messages struct {
	Lang string // the language code, for <html lang>

	// Layout.
	Home         string
	Categories   string
	Products     string
	Contact      string
	SandboxNote  string // %s: e-shop id — the footer line saying this is the sandbox
	NoProducts   string
	PreviewLink  string // the link to the order-confirmed preview
	InclVAT      string
	ExclVAT      string
	Availability string
	Code         string
	Brand        string
	Category     string
	Variants     string
	Parameters   string
	Subcategory  string
	ProductsIn   string // %s: category name
	PicturePlain string // alt text of the placeholder picture: %s product name

	// Order pages.
	OrderThanks       string // %s: order code
	OrderReceived     string // %s: e-shop name
	OrderSummary      string
	Item              string
	Quantity          string
	UnitPrice         string
	LineTotal         string
	Shipping          string
	Payment           string
	BillingAddress    string
	DeliveryAddress   string
	TotalExclVAT      string
	VAT               string
	TotalInclVAT      string
	ToPay             string
	OrderStatus       string
	PayOnline         string
	PayNow            string
	RedirectBefore    string // before the countdown number
	RedirectAfter     string // after it
	OrderPaid         string
	OrderCanceled     string
	PaymentReceived   string // %s: e-shop name
	PaymentNotOffered string
	PreviewNote       string
	PreviewTitle      string
	Redirecting       string
	Continue          string

	// The thank-you page.
	PaymentThanks     string
	PaymentWaiting    string
	PaymentFailed     string
	PaymentCanceled   string
	PaymentDone       string // %s: order code
	PaymentPending    string // %s: order code
	PaymentEnded      string // %s: order code, %s: payment status
	OrderMarkedPaid   string
	OrderNotYetPaid   string // %s: e-shop name
	PayAgain          string
	BackToShop        string
	PaymentStatus     string
	PaymentStatusName map[string]string // paid, pending, failed, canceled

	// E-mails.
	MailConfirmationSubject string // %s: e-shop name, %s: order code
	MailConfirmationBody    string // %s: order code, %s: total
	MailPayOnline           string // %s: payment link
	MailStatusSubject       string // %s: e-shop name, %s: order code, %s: status name
	MailStatusBody          string // %s: order code, %s: status name
	MailSignature           string // %s: e-shop name
}

// Fallback is the language whose table serves a language without one.
const Fallback = "en"

var tables = map[string]*Messages{"cs": &cs, "en": &en}

// For returns the table of a language (a code such as "cs" or "en-GB");
// a language without a table gets English.
func For(lang string) *Messages {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i > 0 {
		lang = lang[:i]
	}
	if m, ok := tables[lang]; ok {
		return m
	}
	return tables[Fallback]
}

// Languages lists the languages with a table of their own.
func Languages() []string {
	return []string{"cs", "en"}
}

// StatusName is a payment status in words; a status the e-shop defined
// itself keeps its code.
func (m *Messages) StatusName(status string) string {
	if n, ok := m.PaymentStatusName[status]; ok {
		return n
	}
	return status
}
