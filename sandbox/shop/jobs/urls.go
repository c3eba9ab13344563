package jobs

import (
	"context"
	"fmt"
	"sort"

	"github.com/eshop-sandbox/sandbox/sandbox"
)

// fetchedFields are the body fields holding URLs a job downloads.
var fetchedFields = map[string]bool{"batchFileUrlPath": true, "sourceUrl": true}

// checkFetchURLs refuses, when the job is asked for, a URL the job would
// download from the sandbox itself (issue 13: no request to itself), with
// a 400 naming the field, instead of a job that fails later. The
// download refuses such URLs (and redirects to them) again when it runs.
func (s *Service) checkFetchURLs(ctx context.Context, body map[string]any) error {
	if s.Fetcher == nil || s.Fetcher.Egress == nil || body == nil {
		return nil
	}
	var check func(v any, at string) error
	check = func(v any, at string) error {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys) // the first problem, the same on every run
			for _, k := range keys {
				field := k
				if at != "" {
					field = at + "." + k
				}
				if u, ok := t[k].(string); ok && fetchedFields[k] {
					if err := s.Fetcher.Egress.CheckDownload(ctx, u); err != nil {
						return sandbox.Invalid(field, "Field %s: %q cannot be downloaded: %v.", field, u, err)
					}
					continue
				}
				if err := check(t[k], field); err != nil {
					return err
				}
			}
		case []any:
			for i, x := range t {
				if err := check(x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return check(body, "")
}
