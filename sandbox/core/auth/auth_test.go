package auth

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

func TestGroupAllows(t *testing.T) {
	tests := []struct {
		all   bool
		right string
		write bool
		want  bool
	}{
		{true, "", false, true},
		{true, "", true, true},
		{false, Read, false, true},
		{false, Read, true, false},
		{false, Write, false, false},
		{false, Write, true, true},
		{false, Both, false, true},
		{false, Both, true, true},
		{false, "", false, false},
		{false, "", true, false},
	}
	for _, tc := range tests {
		if got := GroupAllows(tc.all, tc.right, tc.write); got != tc.want {
			t.Errorf("GroupAllows(%v,%q,%v) = %v, want %v", tc.all, tc.right, tc.write, got, tc.want)
		}
	}
}

func TestPrincipalAllows(t *testing.T) {
	ordersRead := &Principal{Token: &Token{Kind: KindPrivate, Rights: map[string]string{"Orders": Read}}}
	addon := &Principal{Token: &Token{Kind: KindAddon}, Addon: &Addon{Endpoints: []EndpointGrant{
		{Endpoint: "GetListOfOrders", Approved: true},
		{Endpoint: "UpdateOrderStatus", Approved: false, Action: "add"},
	}}}
	tests := []struct {
		name string
		p    *Principal
		e    Endpoint
		ok   bool
	}{
		{"read orders", ordersRead, Endpoint{"GetListOfOrders", "GET", "Orders"}, true},
		{"write orders", ordersRead, Endpoint{"UpdateOrderStatus", "PATCH", "Orders"}, false},
		{"other group", ordersRead, Endpoint{"GetListOfProducts", "GET", "Products"}, false},
		{"addon approved", addon, Endpoint{"GetListOfOrders", "GET", "Orders"}, true},
		{"addon pending", addon, Endpoint{"UpdateOrderStatus", "PATCH", "Orders"}, false},
		{"addon never asked", addon, Endpoint{"GetListOfProducts", "GET", "Products"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Allows(tc.e)
			if (err == nil) != tc.ok {
				t.Fatalf("Allows = %v, want ok=%v", err, tc.ok)
			}
			var se *sandbox.Error
			if err != nil && (!errors.As(err, &se) || se.Code != sandbox.CodeNoRights || se.Instance != "access-token" || se.Kind != sandbox.KindForbidden) {
				t.Fatalf("wrong error %#v", err)
			}
		})
	}
}

func TestParseRights(t *testing.T) {
	known := func(g string) bool { return g == "Orders" || g == "Products" }
	tests := []struct {
		in      string
		all     bool
		wantErr bool
	}{
		{`"all"`, true, false},
		{`{"Orders":"read","Products":"BOTH"}`, false, false},
		{`"some"`, false, true},
		{`{"Orders":"admin"}`, false, true},
		{`{"Nope":"read"}`, false, true},
		{`[1]`, false, true},
	}
	for _, tc := range tests {
		all, _, err := ParseRights(json.RawMessage(tc.in), known)
		if (err != nil) != tc.wantErr || all != tc.all {
			t.Errorf("ParseRights(%s) = %v, %v", tc.in, all, err)
		}
	}
}

func TestTokenExpired(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tok := &Token{ExpiresAt: &at}
	if tok.Expired(at.Add(-time.Second)) || !tok.Expired(at) {
		t.Fatal("expiry boundary wrong")
	}
	if (&Token{}).Expired(at) {
		t.Fatal("private tokens never expire")
	}
}
