package storefront_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tidwall/gjson"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/sandboxtest"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront"
	"github.com/eshop-sandbox/sandbox/sandbox/shop/storefront/locale"
)

// update rewrites the screenshots in testdata/screenshots that docs/api-behaviour.md shows (the repository keeps its top level to the project's folders).
var update = flag.Bool("update", false, "write the storefront screenshots to testdata/screenshots")

// ChromiumPath is where Debian's chromium package puts the browser.
const ChromiumPath = "/usr/bin/chromium"

// The fixed window the pages are checked and photographed in.
const winWidth, winHeight = 1280, 900

// shotsDir is where -update writes the screenshots (the images of docs/api-behaviour.md, The storefront).
var shotsDir = filepath.Join("testdata", "screenshots")

// shots are the pages photographed for docs/api-behaviour.md, by file name.
var shots = []string{"storefront-home.png", "storefront-category.png", "storefront-product.png",
	"storefront-order-confirmed.png", "storefront-thank-you.png", "storefront-thank-you-failed.png"}

// browser starts a headless Chromium for one test, on a fresh profile, at
// the fixed window size, with everything that would reach beyond
// loopback switched off.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		t.Fatalf("the storefront test drives a real browser, and %s is missing (%v): install Debian's chromium with `apt-get update && apt-get install -y chromium`", ChromiumPath, err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ChromiumPath),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-device-scale-factor", "1"),
		// loopback only: every other host name fails to resolve
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.WindowSize(winWidth, winHeight),
		chromedp.UserDataDir(t.TempDir()),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(winWidth, winHeight)); err != nil {
		t.Fatalf("start %s: %v", ChromiumPath, err)
	}
	return ctx
}

// facts is what the test reads of a page in the browser, in one go.
type facts struct {
	Lang, Title, H1  string
	Text             map[string]string // textContent of every element with an id
	Data             map[string]string // "id.key": data-* attributes of elements with an id
	Href             map[string]string // href of every link with an id
	Logo             int               // the logo image's natural width (0: missing or broken)
	HeaderBg         string            // computed background of the header
	ButtonBg         string            // computed background of the first .button
	Nav              []string
	LinkedCSS        int
	InlineScripts    []string
	ExternalScripts  []string
	HeadInsert       bool   // the common-header insert is in <head>
	LastBody         string // id of the body's last element (the common-footer insert)
	ConfirmedInserts int    // #conversion-pixel elements inside #order-confirmed-insert
	Cards            []struct {
		Name, Href, Src, Cut, Price string
		Img                         int
	}
	Rows     [][]string // order item rows: class, then the cells' texts as shown (white space folded)
	Variants int        // rows of the product's variant table
}

const factsJS = `(() => {
const q = s => document.querySelector(s);
const txt = e => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
const text = {}, data = {}, href = {};
document.querySelectorAll('[id]').forEach(e => {
  text[e.id] = txt(e);
  for (const [k, v] of Object.entries(e.dataset)) data[e.id + '.' + k] = v;
  if (e.href) href[e.id] = e.href;
});
const logo = q('img#shop-logo');
return {
  lang: document.documentElement.lang, title: document.title, h1: txt(q('main h1')),
  text, data, href,
  logo: logo && logo.complete ? logo.naturalWidth : 0,
  headerBg: getComputedStyle(q('#site-header')).backgroundColor,
  buttonBg: q('.button') ? getComputedStyle(q('.button')).backgroundColor : '',
  nav: [...document.querySelectorAll('#category-nav a')].map(txt),
  linkedCSS: document.querySelectorAll('link[rel~=stylesheet]').length,
  inlineScripts: [...document.scripts].filter(s => !s.src).map(s => s.textContent.slice(0, 60)),
  externalScripts: [...document.scripts].filter(s => s.src).map(s => s.src),
  headInsert: !!document.head.querySelector('meta[name=addon-header]'),
  lastBody: document.body.lastElementChild ? document.body.lastElementChild.id : '',
  confirmedInserts: document.querySelectorAll('#order-confirmed-insert #conversion-pixel').length,
  cards: [...document.querySelectorAll('.product-card')].map(c => {
    const img = c.querySelector('img');
    return {name: c.dataset.name, href: c.querySelector('a').href, src: img.src, cut: img.dataset.imageUrl,
      img: img.complete ? img.naturalWidth : 0, price: txt(c.querySelector('.price'))};
  }),
  rows: [...document.querySelectorAll('#order-items tbody tr')].map(r => [r.className, ...[...r.cells].map(c => c.innerText.replace(/\s+/g, ' ').trim())]),
  variants: document.querySelectorAll('#product-variants tbody tr').length,
};
})()`

// check collects a page's failed expectations.
type check struct {
	t    *testing.T
	page string
}

func (c check) eq(what string, got, want any) {
	c.t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		c.t.Errorf("%s: %s = %q, want %q", c.page, what, fmt.Sprint(got), fmt.Sprint(want))
	}
}

func (c check) has(what, got, part string) {
	c.t.Helper()
	if !strings.Contains(got, part) {
		c.t.Errorf("%s: %s = %q, want it to contain %q", c.page, what, got, part)
	}
}

func (c check) ok(what string, cond bool) {
	c.t.Helper()
	if !cond {
		c.t.Errorf("%s: %s", c.page, what)
	}
}

// visit opens a page and reads its facts; on any failure of the subtest
// a screenshot of the page lands in a temporary folder that outlives the
// test, and with -update the page is photographed for docs/api-behaviour.md.
func visit(t *testing.T, ctx context.Context, url, shot string) (*facts, func()) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	return read(t, ctx), func() { photograph(t, ctx, shot) }
}

func read(t *testing.T, ctx context.Context) *facts {
	t.Helper()
	f, err := chromedp.Run(ctx, chromedp.Evaluate[facts](factsJS))
	if err != nil {
		t.Fatalf("read the page: %v", err)
	}
	return &f
}

var failureDir = sync.OnceValues(func() (string, error) { return os.MkdirTemp("", "storefront-browser-") })

// photograph writes the page as it is now: to testdata/screenshots under -update
// (for shot names), and to a kept temporary folder when the test failed.
func photograph(t *testing.T, ctx context.Context, shot string) {
	t.Helper()
	if !*update && !t.Failed() {
		return
	}
	img, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Errorf("screenshot: %v", err)
		return
	}
	if t.Failed() {
		dir, err := failureDir()
		if err == nil {
			name := filepath.Join(dir, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())+".png")
			if err = os.WriteFile(name, img, 0o644); err == nil {
				t.Logf("screenshot of the failed page: %s", name)
			}
		}
		if err != nil {
			t.Logf("could not keep a screenshot: %v", err)
		}
	}
	if *update && shot != "" && !t.Failed() {
		if err := os.MkdirAll(shotsDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shotsDir, shot), img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gateway is the payment add-on's gateway on loopback: it reads the
// payment (step 4), reports the result and sets the status (step 6), and
// sends the buyer back to the return address (step 8).
type gateway struct {
	*httptest.Server
	mu   sync.Mutex
	hits []url.Values
	at   time.Time
	errs []string
}

func newGateway(t *testing.T, s *sandboxtest.Server, addonToken string, paidStatus int) *gateway {
	g := &gateway{}
	call := func(method, path string, body any) (int, gjson.Result) {
		r := s.Do(sandboxtest.Call{Method: method, Path: path, AccessToken: addonToken, Body: body})
		return r.Status, gjson.ParseBytes(r.Body).Get("data")
	}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.hits, g.at = append(g.hits, r.URL.Query()), time.Now()
		code := r.URL.Query().Get("code")
		status, info := call("GET", "/api/payment-status/"+url.PathEscape(code), nil)
		if status != 200 {
			g.errs = append(g.errs, fmt.Sprintf("GET payment-status: %d", status))
			http.Error(w, "gateway failed", http.StatusInternalServerError)
			return
		}
		order := info.Get("orderCode").String()
		for _, c := range []struct {
			path string
			body any
		}{
			{"/api/payment-status/" + url.PathEscape(code), map[string]any{"data": map[string]any{"status": "paid", "message": "stub"}}},
			{"/orders/" + url.PathEscape(order) + "/status", map[string]any{"data": map[string]any{"statusId": paidStatus}}},
		} {
			if status, _ := call("PATCH", c.path, c.body); status != 200 {
				g.errs = append(g.errs, fmt.Sprintf("PATCH %s: %d", c.path, status))
				http.Error(w, "gateway failed", http.StatusInternalServerError)
				return
			}
		}
		http.Redirect(w, r, info.Get("returnUrl").String(), http.StatusFound)
	}))
	t.Cleanup(g.Close)
	return g
}

// TestStorefrontInBrowser walks the storefront in Debian's Chromium at a
// fixed window size: the home, category and product pages of the Czech
// e-shop and the English one's home, then an order's confirmed page, the
// 5-second redirect to the gateway and the thank-you page after a paid,
// a failed and a pending payment. Each page's elements are checked in the
// DOM against the API's data; the pages' look is photographed for
// docs/api-behaviour.md with -update (fonts differ between machines, so the pictures are
// documentation, not the gate).
func TestStorefrontInBrowser(t *testing.T) {
	s := sandboxtest.New(t, sandbox.Config{})
	ctx := browser(t)
	cs := locale.For("cs")
	addonToken := sandboxtest.Fixture(t, 1001, "credentials", `addons.0.apiTokens.#(expiresAt>"2090").token`)
	addon := sandboxtest.Fixture(t, 1001, "credentials", "addons.0.name")
	paid, _ := strconv.Atoi(sandboxtest.Fixture(t, 1001, "order-statuses", "_paymentResults.paid"))
	shop := s.URL + "/eshops/1001"
	api(t, s, "POST", "/api/template-include", map[string]any{"data": map[string]any{"snippets": []map[string]string{
		{"location": "common-header", "html": `<meta name="addon-header" content="1">`},
		{"location": "common-footer", "html": `<div id="addon-footer">add-on footer</div>`},
		{"location": "order-confirmed", "html": `<img id="conversion-pixel" alt="" src="` + shop + storefront.PlaceholderPath + `">`},
	}}})
	primary := sandboxtest.Fixture(t, 1001, "eshop", "_storefront.colors.primary")
	cats := api(t, s, "GET", "/api/categories?itemsPerPage=100", nil).Get("categories").Array()
	slices.SortStableFunc(cats, func(a, b gjson.Result) int { return int(a.Get("priority").Int() - b.Get("priority").Int()) })
	nav := []string{cs.Home}
	for _, c := range cats {
		if c.Get("parentGuid").Type == gjson.Null && c.Get("visible").Bool() {
			nav = append(nav, c.Get("menuTitle").String())
		}
	}
	// every page of the e-shop: its language, name, logo, colours, header
	// categories, the one inline stylesheet, the inserts, no foreign code
	common := func(c check, f *facts, lang string, scripts int) {
		c.t.Helper()
		c.eq("lang", f.Lang, lang)
		c.ok("the logo image does not load", f.Logo > 0)
		c.eq("linked stylesheets", f.LinkedCSS, 0)
		c.eq("external scripts", f.ExternalScripts, []string{})
		c.eq("inline scripts", len(f.InlineScripts), scripts)
		c.ok("the common-header insert is not in the head", f.HeadInsert)
		c.eq("last element of the body (the common-footer insert)", f.LastBody, "addon-footer")
	}

	t.Run("home", func(t *testing.T) {
		f, shoot := visit(t, ctx, shop+"/", "storefront-home.png")
		defer shoot()
		c := check{t, "home"}
		common(c, f, "cs", 0)
		c.eq("shop name", f.Text["shop-name"], sandboxtest.Fixture(t, 1001, "eshop", "contactInformation.eshopName"))
		c.eq("h1", f.H1, sandboxtest.Fixture(t, 1001, "eshop", "contactInformation.eshopTitle"))
		c.eq("header colour", f.HeaderBg, rgb(primary))
		c.eq("header categories", f.Nav, nav)
		c.eq("product cards", len(f.Cards), 24)
		list := api(t, s, "GET", "/api/products?itemsPerPage=100", nil)
		for _, card := range f.Cards {
			p := list.Get(`products.#(name=="` + card.Name + `")`)
			c.eq(card.Name+": link", card.Href, p.Get("url").String())
			c.ok(card.Name+": picture does not load", card.Img > 0)
			c.has(card.Name+": image cut", card.Cut, shop+"/cdn/"+storefront.ImageCut+"/")
			c.eq(card.Name+": picture address", card.Src, card.Cut)
			c.has(card.Name+": price", card.Price, "Kč")
		}
		c.has("footer", f.Text["sandbox-note"], "1001")
		c.ok("the order-confirmed insert shows on the home page", f.ConfirmedInserts == 0)
	})

	t.Run("category", func(t *testing.T) {
		cat := cats[0] // the first top-level category by priority
		f, shoot := visit(t, ctx, cat.Get("url").String(), "storefront-category.png")
		defer shoot()
		c := check{t, "category"}
		common(c, f, "cs", 0)
		c.eq("h1", f.H1, cat.Get("name").String())
		below := map[string]bool{cat.Get("guid").String(): true}
		for _, x := range cats {
			if below[x.Get("parentGuid").String()] {
				below[x.Get("guid").String()] = true
			}
		}
		var want []string
		for guid := range below {
			for _, p := range api(t, s, "GET", "/api/products?itemsPerPage=100&visibility=visible&categoryGuid="+guid, nil).Get("products").Array() {
				if !slices.Contains(want, p.Get("name").String()) {
					want = append(want, p.Get("name").String())
				}
			}
		}
		var got []string
		for _, card := range f.Cards {
			got = append(got, card.Name)
		}
		slices.Sort(want)
		slices.Sort(got)
		c.eq("products of the category and its subcategories", got, want)
		c.ok("no product listed", len(got) > 0)
	})

	t.Run("product", func(t *testing.T) {
		guid := sandboxtest.Fixture(t, 1001, "products", `#(variants.#>1).guid`)
		p := api(t, s, "GET", "/api/products/"+guid+"?include=images", nil)
		f, shoot := visit(t, ctx, p.Get("url").String(), "storefront-product.png")
		defer shoot()
		c := check{t, "product"}
		common(c, f, "cs", 0)
		c.eq("name", f.Text["product-name"], p.Get("name").String())
		c.eq("code", f.Text["product-code"], p.Get("variants.0.code").String())
		c.eq("availability", f.Text["product-availability"], p.Get("variants.0.availability.name").String())
		c.eq("brand", f.Text["product-brand"], p.Get("brand.name").String())
		c.eq("category", f.Text["product-category"], p.Get("defaultCategory.name").String())
		c.has("price", f.Text["product-price"], "Kč")
		c.eq("variants", f.Variants, len(p.Get("variants").Array()))
		c.has("description", f.Text["product-description"], strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(p.Get("description").String(), "</p>", 2)[0], "<p>"), "."))
		cut := api(t, s, "GET", "/api/eshop?include=imageCuts", nil).Get(`imageCuts.#(name=="`+storefront.ImageCut+`").cdnPath`).String() +
			p.Get(`images.#(isMainImage==true).signedCdnNames.#(type=="`+storefront.ImageCut+`").name`).String()
		c.eq("product", f.Data["product.guid"], guid)
		img, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#product .product-image').dataset.imageUrl`))
		c.ok("product picture: "+fmt.Sprint(err), err == nil && img == cut)
	})

	t.Run("english home", func(t *testing.T) {
		f, _ := visit(t, ctx, s.URL+"/eshops/1002/", "")
		c := check{t, "1002 home"}
		c.eq("lang", f.Lang, "en")
		c.eq("header colour", f.HeaderBg, rgb(sandboxtest.Fixture(t, 1002, "eshop", "_storefront.colors.primary")))
		c.eq("first header link", f.Nav[0], locale.For("en").Home)
		c.eq("product cards", len(f.Cards), len(gjson.Parse(sandboxtest.Fixture(t, 1002, "products", "@this")).Array()))
		c.ok("1001's inserts show on 1002", !f.HeadInsert && f.LastBody != "addon-footer")
	})

	// the payment flow: an order paid online with the add-on's gateway
	gw := newGateway(t, s, addonToken, paid)
	if r := s.Do(sandboxtest.Call{Method: "PUT", Path: "/_sandbox/eshops/1001/payment-gateways/" + addon, Body: map[string]any{"url": gw.URL + "/pay?code=#PAYMENT_CODE#&lang=#LANGUAGE#&eshop=#ESHOP_ID#"}}); r.Status != 200 {
		t.Fatalf("register the gateway: %d %s", r.Status, r.Body)
	}
	newOrder := func(t *testing.T) (gjson.Result, string) {
		o := api(t, s, "POST", "/api/orders", map[string]any{"data": orderData(t)}).Get("order")
		return o, o.Get(`paymentTransactions.#(status=="pending").transactionId`).String()
	}
	orderRows := func(c check, f *facts, o gjson.Result) {
		c.t.Helper()
		var want [][]string
		for _, it := range o.Get("items").Array() {
			switch it.Get("itemType").String() {
			case "shipping":
				want = append(want, []string{"fee fee-shipping", cs.Shipping + ": " + it.Get("name").String()})
			case "billing":
				want = append(want, []string{"fee fee-payment", cs.Payment + ": " + it.Get("name").String()})
			default:
				want = append(want, []string{"item", it.Get("name").String() + " " + it.Get("variantName").String() + " " + cs.Code + ": " + it.Get("code").String(),
					strings.TrimSuffix(it.Get("amount").String(), ".000") + " " + it.Get("amountUnit").String()})
			}
		}
		c.eq("item rows", len(f.Rows), len(want))
		for i := range min(len(f.Rows), len(want)) {
			c.eq(fmt.Sprintf("row %d class", i), f.Rows[i][0], want[i][0])
			c.eq(fmt.Sprintf("row %d item", i), f.Rows[i][1], want[i][1])
			if len(want[i]) > 2 {
				c.eq(fmt.Sprintf("row %d quantity", i), f.Rows[i][2], want[i][2])
			}
			c.has(fmt.Sprintf("row %d total", i), f.Rows[i][len(f.Rows[i])-1], "Kč")
		}
		for _, id := range []string{"total-without-vat", "total-vat", "total-with-vat", "order-total"} {
			c.has(id, f.Text[id], "Kč")
		}
		c.has("to pay", f.Text["order-total"], strings.Replace(o.Get("price.toPay").String()[len(o.Get("price.toPay").String())-5:], ".", ",", 1))
		c.has("billing address", f.Text["billing-address"], o.Get("billingAddress.fullName").String())
		c.has("billing address", f.Text["billing-address"], o.Get("billingAddress.zip").String()+" "+o.Get("billingAddress.city").String())
	}

	t.Run("order confirmed, redirect, thank you", func(t *testing.T) {
		o, payCode := newOrder(t)
		code := o.Get("code").String()
		f, shoot := visit(t, ctx, shop+"/order/"+code+"/confirmed", "storefront-order-confirmed.png")
		landed := time.Now()
		c := check{t, "order confirmed"}
		common(c, f, "cs", 1) // the countdown
		c.eq("h1", f.H1, fmt.Sprintf(cs.OrderThanks, code))
		c.eq("order", f.Data["order-confirmed.order"], code)
		c.eq("status", f.Text["order-status"], o.Get("status.name").String())
		c.eq("payment state", f.Data["payment-state.status"], "pending")
		c.ok("pay button "+f.Href["pay-online"], strings.HasPrefix(f.Href["pay-online"], gw.URL+"/pay?code="+payCode+"&lang=cs"))
		c.eq("button colour", f.ButtonBg, rgb(primary))
		c.eq("order-confirmed inserts", f.ConfirmedInserts, 1)
		c.ok("countdown at "+f.Text["countdown"], f.Text["countdown"] == "5" || f.Text["countdown"] == "4")
		orderRows(c, f, o)
		shoot()
		// The countdown ticks: wait (at most 3 s, it ticks every second)
		// for it to show less than it did.
		for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			later := read(t, ctx)
			if later.Text["countdown"] < f.Text["countdown"] {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("the countdown stands at %s after %s", later.Text["countdown"], f.Text["countdown"])
				break
			}
		}
		if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.ID("thank-you"))); err != nil {
			t.Fatalf("wait for the thank-you page: %v", err)
		}
		gw.mu.Lock()
		errs, hits, at := gw.errs, len(gw.hits), gw.at
		gw.mu.Unlock()
		if len(errs) > 0 || hits != 1 {
			t.Fatalf("the gateway: %d hits, errors %v", hits, errs)
		}
		if d := at.Sub(landed); d < storefront.RedirectDelay-time.Second || d > storefront.RedirectDelay+10*time.Second {
			t.Errorf("the buyer reached the gateway %v after the page loaded, want about %v", d, storefront.RedirectDelay)
		}
		f = read(t, ctx)
		defer photograph(t, ctx, "storefront-thank-you.png")
		c = check{t, "thank you (paid)"}
		location, _ := chromedp.Run(ctx, chromedp.Location())
		c.eq("address", location, shop+"/order/"+code+"/thank-you?paymentCode="+payCode)
		common(c, f, "cs", 0)
		c.eq("h1", f.H1, cs.PaymentThanks)
		c.eq("payment status", f.Data["payment-status.status"], "paid")
		c.eq("order paid", f.Data["order-paid.paid"], "true")
		c.eq("status name", f.Text["payment-status-name"], cs.StatusName("paid"))
		c.ok("a paid order offers to pay again", f.Href["pay-again"] == "")
		paidOrder := api(t, s, "GET", "/api/orders/"+code+"?include=paymentTransactions", nil).Get("order")
		c.eq("order status", f.Text["order-status"], paidOrder.Get("status.name").String())
		orderRows(c, f, paidOrder)
		// the order keeps its transaction, in its final state
		c.eq("transaction after payment", paidOrder.Get(`paymentTransactions.#(transactionId=="`+payCode+`").status`).String(), "paid")
	})

	t.Run("thank you after a failed payment", func(t *testing.T) {
		o, payCode := newOrder(t)
		code := o.Get("code").String()
		r := s.Do(sandboxtest.Call{Method: "PATCH", Path: "/api/payment-status/" + payCode, AccessToken: addonToken, Body: map[string]any{"data": map[string]any{"status": "failed"}}})
		if r.Status != 200 {
			t.Fatalf("failed result: %d %s", r.Status, r.Body)
		}
		f, shoot := visit(t, ctx, shop+"/order/"+code+"/thank-you?paymentCode="+url.QueryEscape(payCode), "storefront-thank-you-failed.png")
		defer shoot()
		c := check{t, "thank you (failed)"}
		common(c, f, "cs", 0)
		c.eq("h1", f.H1, cs.PaymentFailed)
		c.eq("payment status", f.Data["payment-status.status"], "failed")
		c.eq("pay again", f.Href["pay-again"], shop+"/order/"+code+"/pay")
		c.ok("a failed payment says the order is paid", f.Data["order-paid.paid"] == "")
		orderRows(c, f, o)
		c.eq("transaction after a failed payment", api(t, s, "GET", "/api/orders/"+code+"?include=paymentTransactions", nil).
			Get(`order.paymentTransactions.#(transactionId=="`+payCode+`").status`).String(), "failed")
	})

	t.Run("thank you while the payment is pending", func(t *testing.T) {
		o, payCode := newOrder(t)
		f, shoot := visit(t, ctx, shop+"/order/"+o.Get("code").String()+"/thank-you?paymentCode="+url.QueryEscape(payCode), "")
		defer shoot()
		c := check{t, "thank you (pending)"}
		c.eq("h1", f.H1, cs.PaymentWaiting)
		c.eq("payment status", f.Data["payment-status.status"], "pending")
		c.ok("a pending payment offers to pay again", f.Href["pay-again"] == "")
		c.eq("status name", f.Text["payment-status-name"], cs.StatusName("pending"))
	})

	if !*update {
		checkShots(t)
	}
}

// checkShots: the screenshots docs/api-behaviour.md shows exist, as PNGs of the fixed window.
func checkShots(t *testing.T) {
	for _, name := range shots {
		raw, err := os.ReadFile(filepath.Join(shotsDir, name))
		if err != nil {
			t.Errorf("%v: run go test ./sandbox/shop/storefront -run TestStorefrontInBrowser -update", err)
			continue
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(raw))
		if err != nil || cfg.Width != winWidth || cfg.Height != winHeight {
			t.Errorf("%s: %v, %dx%d; want a %dx%d PNG", name, err, cfg.Width, cfg.Height, winWidth, winHeight)
		}
	}
}

// rgb is a #rrggbb colour the way getComputedStyle writes it.
func rgb(hex string) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || len(hex) != 7 {
		return "bad colour " + hex
	}
	return fmt.Sprintf("rgb(%d, %d, %d)", v>>16, v>>8&0xff, v&0xff)
}

// orderData is an order of e-shop 1001 paid online with the add-on's
// card method: two products, courier shipping.
func orderData(t *testing.T) map[string]any {
	card := sandboxtest.Fixture(t, 1001, "payment-methods", `#(_online==true).guid`)
	ship := sandboxtest.Fixture(t, 1001, "shipping-methods", `#(_default==true).guid`)
	p1 := sandboxtest.Fixture(t, 1001, "products", `#(variants.#>1).variants.0`)
	p2 := sandboxtest.Fixture(t, 1001, "products", `#(variants.#>1).variants.1`)
	item := func(v string, amount string) map[string]any {
		g := gjson.Parse(v)
		return map[string]any{"itemType": "product", "code": g.Get("code").String(), "vatRate": g.Get("vatRate").String(),
			"itemPriceWithVat": g.Get("price").String(), "amount": amount}
	}
	return map[string]any{
		"email": "eva.buyer@example.com", "shippingGuid": ship, "paymentMethodGuid": card, "language": "cs",
		"billingAddress": map[string]any{"fullName": "Eva Nováková", "street": "Korunní", "houseNumber": "12", "city": "Praha", "zip": "120 00", "countryCode": "CZ"},
		"items": []any{
			item(p1, "1.000"), item(p2, "2.000"),
			map[string]any{"itemType": "shipping", "name": sandboxtest.Fixture(t, 1001, "shipping-methods", `#(_default==true).name`), "vatRate": "21.00", "itemPriceWithVat": "129.00"},
			map[string]any{"itemType": "billing", "name": sandboxtest.Fixture(t, 1001, "payment-methods", `#(_online==true).name`), "vatRate": "21.00", "itemPriceWithVat": "0.00"},
		},
	}
}
