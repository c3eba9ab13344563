package payments

import (
	"errors"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
	"github.com/eshop-sandbox/sandbox/sandbox/core/eshop"
	"github.com/eshop-sandbox/sandbox/sandbox/core/store"
)

// ControlRoutes are the payment parts of the control plane: the
// operator's activation of a payment method and the gateway records.
func (s *Service) ControlRoutes() []api.Route {
	const shop = "/_sandbox/eshops/{eshopId:[0-9]+}"
	return []api.Route{
		{Operation: "sandbox.paymentMethods.activate", Method: http.MethodPost, Summary: "Activate a payment method an add-on created (the e-shop operator's step)", Path: shop + "/payment-methods/{guid}/activate", Handler: s.activate, Body: api.NoData{}, Answer: map[string]any{"guid": api.Doc("", "The payment method activated."), "active": api.Doc(true, "Always true."),
			"visible": api.Doc(true, "Always true: customers see it."), "online": api.Doc(false, "Whether it is an online payment (paid through the add-on's gateway)."),
			"addon": api.Doc(nil, "The add-on that created it.")}},
		{Operation: "sandbox.paymentGateways.list", Method: http.MethodGet, Summary: "The e-shop's payment gateway addresses per add-on", Path: shop + "/payment-gateways", Handler: s.gateways, Answer: map[string]any{"paymentGateways": api.Doc([]GatewayView{}, "The gateway address of every add-on that has one, by add-on name.")}},
		{Operation: "sandbox.paymentGateways.put", Method: http.MethodPut, Summary: "Set an add-on's payment gateway address", Path: shop + "/payment-gateways/{addon}", Handler: s.putGateway, Answer: GatewayView{}, Body: GatewayBody{}},
	}
}

// GatewayView is one add-on's gateway record in the control plane.
type GatewayView struct {
	Addon string `json:"addon"` // the add-on
	URL   string `json:"url"`   // its gateway address template
}

// gateways serves GET /_sandbox/eshops/{id}/payment-gateways: the gateway
// address of every add-on of the e-shop that has one.
func (s *Service) gateways(r *api.Request) (any, error) {
	eshopID := atoi(r.Var("eshopId"))
	out := []GatewayView{}
	err := s.Store.View(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, eshopID); err != nil {
			return err
		}
		return auth.EachAddon(tx, eshopID, func(a *auth.Addon) bool {
			if a.PaymentGateway != "" {
				out = append(out, GatewayView{Addon: a.Name, URL: a.PaymentGateway})
			}
			return true
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Addon < out[j].Addon })
	return map[string]any{"paymentGateways": out}, err
}

// putGateway serves PUT /_sandbox/eshops/{id}/payment-gateways/{addon}
// with {"url": "..."}: registers (or, with an empty url, removes) the
// add-on's gateway address template.
// GatewayBody is the body of PUT .../payment-gateways/{addon} (also
// accepted inside "data").
type GatewayBody struct {
	URL string `json:"url" doc:"The gateway address template with #LANGUAGE#, #ESHOP_ID# or #ESHOP_URL# and #PAYMENT_CODE#; empty removes it."`
}

func (s *Service) putGateway(r *api.Request) (any, error) {
	in, err := r.Body()
	if err != nil {
		return nil, err
	}
	if d, ok := in["data"].(map[string]any); ok {
		in = d
	}
	tpl := strings.TrimSpace(str(in["url"]))
	if tpl != "" {
		if err := CheckTemplate(tpl); err != nil {
			return nil, sandbox.Invalid("url", "%s.", err.Error())
		}
	}
	eshopID, name := atoi(r.Var("eshopId")), r.Var("addon")
	err = s.Store.Update(func(tx *store.Tx) error {
		if _, err := eshop.Get(tx, eshopID); err != nil {
			return err
		}
		a, err := auth.GetAddon(tx, eshopID, name)
		if errors.Is(err, sandbox.ErrNotFound) {
			return sandbox.NotFound(name, "Add-on %q does not exist in this e-shop.", name)
		}
		if err != nil {
			return err
		}
		a.PaymentGateway = tpl
		return auth.PutAddon(tx, eshopID, a)
	})
	if err != nil {
		return nil, err
	}
	return GatewayView{Addon: name, URL: tpl}, nil
}

// atoi reads a path variable the route's pattern already made digits.
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
