package fixturegen

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Invented first names and surnames (female surname forms follow the
// Czech rule), combined deterministically.
var (
	maleFirst   = []string{"Adam", "David", "Filip", "Jakub", "Jan", "Jiří", "Josef", "Karel", "Lukáš", "Marek", "Martin", "Michal", "Ondřej", "Pavel", "Petr", "Radek", "Stanislav", "Tomáš", "Vojtěch", "Zdeněk"}
	femaleFirst = []string{"Alena", "Anna", "Barbora", "Eva", "Hana", "Ivana", "Jana", "Kateřina", "Klára", "Lenka", "Lucie", "Markéta", "Martina", "Monika", "Petra", "Simona", "Tereza", "Veronika", "Zuzana", "Žaneta"}
	surnames    = [][2]string{{"Novák", "Nováková"}, {"Svoboda", "Svobodová"}, {"Dvořák", "Dvořáková"}, {"Černý", "Černá"}, {"Procházka", "Procházková"},
		{"Kučera", "Kučerová"}, {"Veselý", "Veselá"}, {"Horák", "Horáková"}, {"Němec", "Němcová"}, {"Pokorný", "Pokorná"}, {"Marek", "Marková"},
		{"Pospíšil", "Pospíšilová"}, {"Hájek", "Hájková"}, {"Jelínek", "Jelínková"}, {"Král", "Králová"}, {"Růžička", "Růžičková"},
		{"Beneš", "Benešová"}, {"Fiala", "Fialová"}, {"Sedláček", "Sedláčková"}, {"Doležal", "Doležalová"}}
	cities = [][3]string{{"Praha", "110 00", "Vinohradská"}, {"Brno", "602 00", "Kounicova"}, {"Ostrava", "702 00", "Nádražní"},
		{"Plzeň", "301 00", "Klatovská"}, {"Liberec", "460 01", "Jablonecká"}, {"Olomouc", "779 00", "Třída Svobody"},
		{"České Budějovice", "370 01", "Lannova"}, {"Hradec Králové", "500 02", "Gočárova"}, {"Pardubice", "530 02", "Třída Míru"},
		{"Zlín", "760 01", "Třída Tomáše Bati"}}
)

// makeCustomers writes Customers people, each shaped like a template
// customer (group, price list, remarks) with a new name, address, account
// and identifiers.
func (g *gen) makeCustomers() {
	remarkFloor := int64(0)
	for _, c := range g.tplCustomers {
		for _, r := range list(c["remarks"]) {
			if n, _ := strconv.ParseInt(str(obj(r)["id"]), 10, 64); n > remarkFloor {
				remarkFloor = n
			}
		}
	}
	for i := 0; i < g.opt.Customers; i++ {
		t := i % len(g.tplCustomers)
		c := clone(g.tplCustomers[t]).(map[string]any)
		female := g.rng.IntN(2) == 0
		sn := surnames[g.rng.IntN(len(surnames))]
		first, last := maleFirst[g.rng.IntN(len(maleFirst))], sn[0]
		if female {
			first, last = femaleFirst[g.rng.IntN(len(femaleFirst))], sn[1]
		}
		full := first + " " + last
		city := cities[g.rng.IntN(len(cities))]
		email := fmt.Sprintf("%s.%s.%d@example.com", slug(first), slug(last), i+1)
		phone := fmt.Sprintf("+420 6%02d %03d %03d", g.rng.IntN(100), g.rng.IntN(1000), g.rng.IntN(1000))
		c["guid"] = g.uid("customer", i)
		c["adminUrl"] = fmt.Sprintf("{eshop_url}/admin/customers/%d/", i+1)
		ba := obj(c["billingAddress"])
		ba["fullName"], ba["street"], ba["houseNumber"], ba["city"], ba["zip"] = full, city[2], strconv.Itoa(1+g.rng.IntN(200)), city[0], city[1]
		if ba["company"] == nil {
			ba["countryCode"] = "CZ"
		}
		accounts := list(c["accounts"])
		for j, a := range accounts {
			am := obj(a)
			am["guid"] = g.uid("customer-account", i*10+j)
			if j == 0 {
				am["email"], am["fullName"], am["phone"] = email, full, phone
			} else {
				am["email"] = fmt.Sprintf("%d.%s", j, email)
			}
		}
		for j, d := range list(c["deliveryAddress"]) {
			obj(d)["guid"] = g.uid("customer-delivery-address", i*10+j)
		}
		for _, r := range list(c["remarks"]) {
			obj(r)["id"] = json.Number(strconv.FormatInt(g.next("remark", remarkFloor), 10))
		}
		g.customers = append(g.customers, c)
	}
	g.files["customers"] = anyList(g.customers)
}

// orderFiles are the files written with the orders, in orderChunk's
// order.
var orderFiles = [...]string{"orders", "invoices", "delivery-notes", "proof-payments", "order-history", "stock-movements"}

// orderChunk is what a worker made of a run of orders: the orders and
// the records that follow from them, by orderFiles.
type orderChunk [len(orderFiles)]batch

// writeOrders makes Orders orders in parallel and streams them, with the
// records that follow from them (see deriveOrder), to their files in
// order. Every order is a template order re-addressed to a generated
// customer (guests stay guests) and to generated editions of its
// products; prices and totals are the template's, so they stay exact.
func (g *gen) writeOrders(dir string) error {
	byTplCustomer := map[string]bool{}
	for _, c := range g.tplCustomers {
		byTplCustomer[str(c["guid"])] = true
	}
	for i := 0; i < min(g.opt.Orders, len(g.tplOrders)); i++ {
		g.orderCodes = append(g.orderCodes, orderCode(i))
	}
	// The numbers of the documents and movements before each template
	// order in one pass over the templates, so that any run of orders
	// can be made on its own.
	T := len(g.tplOrders)
	before := make([]counters, T+1)
	for t, o := range g.tplOrders {
		before[t+1] = before[t].plus(shapeOf(o))
	}
	// Orders change their items; deriveOrder reads the fields named here.
	for _, o := range g.tplOrders {
		pre := prepare(o, nil, []string{"code", "guid", "adminUrl", "paymentTransactions", "items",
			"onlinePaymentLink", "externalCode", "customerGuid", "email", "phone", "billingAddress", "deliveryAddress", "addressesEqual",
			"creationTime", "status", "paid", "billingMethod", "vatMode", "price", "notes", "language"})
		// Items get new codes and GUIDs; deriveOrder reads these fields
		// of them and copies the others into documents as they are.
		for _, it := range list(o["items"]) {
			pre.items = append(pre.items, prepare(obj(it), nil, []string{"code", "productGuid", "itemType", "amount", "itemPrice"}))
		}
		g.preOrders = append(g.preOrders, pre)
	}
	var lws [len(orderFiles)]*listWriter
	for k, name := range orderFiles {
		fw, err := createFile(dir, name)
		if err != nil {
			for _, lw := range lws[:k] {
				lw.close()
			}
			return err
		}
		lws[k] = &listWriter{fileWriter: fw}
	}
	err := pipeline(g.opt.Orders, chunkSize, g.opt.Workers, func(lo, hi int) *orderChunk {
		out := &orderChunk{}
		if T == 0 {
			return out
		}
		ctr := before[T].times(lo / T).plus(before[lo%T])
		for i := lo; i < hi; i++ {
			o := g.order(i, byTplCustomer)
			g.deriveOrder(o, i, &ctr, out)
			// Encoded in their templates' key order.
			pre := g.preOrders[i%T]
			for j, it := range list(o["items"]) {
				list(o["items"])[j] = ordered{obj(it), pre.items[j].keys}
			}
			out[0].recordOrdered(o, idFields["orders"], pre.keys)
		}
		return out
	}, func(c *orderChunk) error {
		for k := range c {
			if c[k].err != nil {
				return c[k].err
			}
			lws[k].add(&c[k])
			if lws[k].err != nil {
				return lws[k].err
			}
		}
		return nil
	})
	for k, lw := range lws {
		f, cerr := lw.close()
		if err == nil {
			err = g.done(orderFiles[k], lw.n, true, f, cerr)
		}
		delete(g.files, orderFiles[k])
	}
	return err
}

func orderCode(i int) string { return fmt.Sprintf("2026%06d", i+1) }

// order makes order number i.
func (g *gen) order(i int, byTplCustomer map[string]bool) map[string]any {
	t, s := i%len(g.tplOrders), i/len(g.tplOrders)
	pre := g.preOrders[t]
	o := pre.copy()
	delete(o, "_translations")
	if o["items"] != nil {
		items := make([]any, len(pre.items))
		for j, it := range pre.items {
			items[j] = it.copy()
		}
		o["items"] = items
	}
	code := orderCode(i)
	o["code"], o["guid"] = code, g.uid("order", i)
	o["adminUrl"] = fmt.Sprintf("{eshop_url}/admin/orders/%s/", code)
	o["paymentTransactions"], o["onlinePaymentLink"], o["externalCode"] = []any{}, nil, nil
	if byTplCustomer[str(o["customerGuid"])] {
		c := g.customers[i%len(g.customers)]
		acc := obj(list(c["accounts"])[0])
		o["customerGuid"], o["email"], o["phone"] = c["guid"], acc["email"], acc["phone"]
		o["billingAddress"] = clone(c["billingAddress"])
		if o["addressesEqual"] == true || o["deliveryAddress"] == nil {
			o["deliveryAddress"] = deliveryOf(obj(c["billingAddress"]))
		}
	}
	for _, it := range list(o["items"]) {
		im := obj(it)
		if tcode := str(im["code"]); tcode != "" {
			if c, ok := g.editionCode(tcode, s); ok {
				im["code"] = c
				if pt, ok := g.byCode[tcode]; ok {
					eds := g.editions[pt]
					ed := eds[0]
					if s < len(eds) {
						ed = eds[s]
					}
					im["productGuid"] = ed.guid
				}
			}
		}
	}
	return o
}

func deliveryOf(b map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"fullName", "company", "street", "houseNumber", "city", "zip", "countryCode", "district", "additional", "regionName", "regionShortcut"} {
		out[k] = b[k]
	}
	return out
}
