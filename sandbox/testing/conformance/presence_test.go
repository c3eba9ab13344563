package conformance

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/eshop-sandbox/sandbox/schemas"
)

// bodyless are the reference endpoints whose answer has no JSON body to
// hold declared properties (responseKind "raw", no response schema),
// each with the reason. The presence check walks every other endpoint;
// TestEveryEndpointConforms fails when an endpoint is neither walked nor
// listed here, or listed here while it has a response schema, so the
// check covers all 328 and cannot lose one silently.
var bodyless = map[string]string{
	"DownloadCreditNoteAsIsdoc":   "binary: an ISDOC XML document",
	"DownloadCreditNotePdf":       "binary: a PDF document",
	"DownloadDeliveryNoteAsPdf":   "binary: a PDF document",
	"DownloadInvoiceAsIsdoc":      "binary: an ISDOC XML document",
	"DownloadInvoiceAsPdf":        "binary: a PDF document",
	"DownloadOrderAsPdf":          "binary: a PDF document",
	"DownloadProformaInvoicePdf":  "binary: a PDF document",
	"DownloadProofPaymentAsIsdoc": "binary: an ISDOC XML document",
	"DownloadProofOfPaymentPdf":   "binary: a PDF document",
	"CloseCarrierShipments":       "204: the reference declares no response body",
	"ShipmentCancellationRequest": "204: the reference declares no response body",
}

// presence is the tally of the presence check over one run of the
// catalogue: the endpoints whose answers it walked, those it skipped as
// bodyless, and the snapshot result lines it walked.
type presence struct {
	rs      *rawSchemas
	walked  map[string]bool
	skipped map[string]bool
	lines   map[string]int // snapshot endpoint -> result lines checked
}

func newPresence(rs *rawSchemas) *presence {
	return &presence{rs: rs, walked: map[string]bool{}, skipped: map[string]bool{}, lines: map[string]int{}}
}

// check lists the properties the endpoint's response schema declares
// that the answer leaves out, recursively into objects and array items
// ("" when none is missing). A bodyless endpoint is only tallied.
func (p *presence) check(ep schemas.Endpoint, a *answer) string {
	if _, ok := bodyless[ep.Operation]; ok {
		p.skipped[ep.Operation] = true
		return ""
	}
	sch, ok := p.rs.files[ep.Response]
	if ep.Response == "" || !ok {
		return "no response schema and not listed as bodyless"
	}
	body, ok := decodeAny(string(a.body)).(map[string]any)
	if !ok {
		return fmt.Sprintf("the response schema declares a JSON object, the answer is %d bytes of %q", len(a.body), a.ctype)
	}
	p.walked[ep.Operation] = true
	if miss := p.rs.missingProps(sch, body, "", 0); len(miss) > 0 {
		return "the answer leaves out declared properties: " + strings.Join(miss, ", ")
	}
	return ""
}

// follow checks a follow-up GET's answer along its own operation's
// response schema.
func (p *presence) follow(op string, a *answer) string {
	sch, ok := p.rs.files["endpoints/"+op+".response.json"]
	if !ok {
		return ""
	}
	if miss := p.rs.missingProps(sch, decodeAny(string(a.body)), "", 0); len(miss) > 0 {
		return "the answer of " + op + " leaves out declared properties: " + strings.Join(miss, ", ")
	}
	return ""
}

// coverage says which catalogue endpoints the check neither walked nor
// skipped, and which bodyless entries have a response schema after all.
func (p *presence) coverage(cat *schemas.Catalogue) []string {
	var out []string
	for _, ep := range cat.Endpoints {
		_, listed := bodyless[ep.Operation]
		switch {
		case listed && ep.Response != "":
			out = append(out, fmt.Sprintf("%s is listed as bodyless but declares %s", ep.Operation, ep.Response))
		case listed && ep.ResponseKind != "raw":
			out = append(out, fmt.Sprintf("%s is listed as bodyless but answers %s", ep.Operation, ep.ResponseKind))
		case !p.walked[ep.Operation] && !p.skipped[ep.Operation]:
			out = append(out, ep.Operation+" answered without its declared properties being checked")
		}
	}
	for op := range bodyless {
		if !hasOp(cat, op) {
			out = append(out, "bodyless entry "+op+" names no reference operation")
		}
	}
	sort.Strings(out)
	return out
}

// snapshot waits for a snapshot endpoint's job, downloads its result
// file and checks every line along the endpoint's snapshotResultItem:
// the lines are the records the endpoint answers, so they hold every
// declared property as the detail answers do.
func (p *presence) snapshot(c *client, ep schemas.Endpoint, a *answer) string {
	if !ep.Snapshot {
		return ""
	}
	sch, ok := p.rs.files[ep.SnapshotItem]
	if !ok {
		return "no snapshotResultItem schema " + ep.SnapshotItem
	}
	j, err := c.follow(a.get("data.jobId").String())
	if err != nil {
		return "snapshot job: " + err.Error()
	}
	lines, err := c.resultLines(j.Get("resultUrl").String())
	if err != nil {
		return "snapshot result file: " + err.Error()
	}
	for i, line := range lines {
		if miss := p.rs.missingProps(sch, decodeAny(line), "", 0); len(miss) > 0 {
			return fmt.Sprintf("snapshot line %d leaves out declared properties: %s", i+1, strings.Join(miss, ", "))
		}
	}
	p.lines[ep.Operation] = len(lines)
	return ""
}

// resultLines downloads a gzip JSON Lines result file (no API headers:
// the URL is the credential) and returns its lines.
func (c *client) resultLines(u string) ([]string, error) {
	if u == "" {
		return nil, fmt.Errorf("the job has no resultUrl")
	}
	resp, err := c.hc.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out, nil
}
