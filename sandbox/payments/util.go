package payments

import (
	"encoding/json"
	"fmt"
)

func jsonInt(v any) (int64, error) {
	switch t := v.(type) {
	case json.Number:
		return t.Int64()
	case float64:
		return int64(t), nil
	case int64:
		return t, nil
	case int:
		return int64(t), nil
	}
	return 0, fmt.Errorf("not a number: %v", v)
}
