package app_test

import "encoding/json"

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
