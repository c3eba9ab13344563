package payments

import "testing"

func TestFill(t *testing.T) {
	tests := []struct {
		tpl, want string
	}{
		{"https://pay.example/start?lang=#LANGUAGE#&eshop=#ESHOP_ID#&code=#PAYMENT_CODE#",
			"https://pay.example/start?lang=cs&eshop=1001&code=Ab1"},
		{"https://pay.example/#PAYMENT_CODE#?shop=#ESHOP_URL#",
			"https://pay.example/Ab1?shop=http%3A%2F%2F127.0.0.1%3A8080%2Feshops%2F1001"},
		{"https://pay.example/?a=#PAYMENT_CODE#&b=#PAYMENT_CODE#&e=#ESHOP_ID#", "https://pay.example/?a=Ab1&b=Ab1&e=1001"},
	}
	for _, tc := range tests {
		if err := CheckTemplate(tc.tpl); err != nil {
			t.Errorf("%s: %v", tc.tpl, err)
		}
		if got := Fill(tc.tpl, "cs", 1001, "http://127.0.0.1:8080/eshops/1001", "Ab1"); got != tc.want {
			t.Errorf("Fill(%s) = %s, want %s", tc.tpl, got, tc.want)
		}
	}
}

func TestCheckTemplateRefuses(t *testing.T) {
	for _, tpl := range []string{
		"",
		"/relative?code=#PAYMENT_CODE#&e=#ESHOP_ID#",
		"ftp://pay.example/?code=#PAYMENT_CODE#&e=#ESHOP_ID#",
		"https://pay.example/?e=#ESHOP_ID#",
		"https://pay.example/?code=#PAYMENT_CODE#&lang=#LANGUAGE#",
	} {
		if err := CheckTemplate(tpl); err == nil {
			t.Errorf("%q accepted", tpl)
		}
	}
}
