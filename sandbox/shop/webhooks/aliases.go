package webhooks

import (
	"fmt"
	"sort"
)

// Aliases maps an event kind as the spec's Events table names it to the
// reference's name of the same kind, where the two differ. Registration
// (and the control plane's emit and the notification filter) accept
// either name; the webhook is stored, listed and delivered under the
// reference's name, the one the real service sends. docs/api-behaviour.md
// (Webhooks) lists these pairs; the registration schema accepts the spec's names too
// (cmd/schemagen, specEventNames).
var Aliases = map[string]string{
	"productReview:create": "productReview:created",
}

// Canonical is the reference's name of an event kind: the alias's
// target, or the name itself.
func Canonical(kind string) string {
	if ref, ok := Aliases[kind]; ok {
		return ref
	}
	return kind
}

// CheckAliases refuses, at start, an alias whose target the reference
// does not know or whose own name is already a reference event (it would
// then name two kinds).
func (c Catalogue) CheckAliases() error {
	names := make([]string, 0, len(Aliases))
	for a := range Aliases {
		names = append(names, a)
	}
	sort.Strings(names)
	for _, a := range names {
		if c[a] {
			return fmt.Errorf("webhooks: alias %s is itself an event of the reference", a)
		}
		if !c[Aliases[a]] {
			return fmt.Errorf("webhooks: alias %s names %s, which is not an event of the reference", a, Aliases[a])
		}
	}
	return nil
}
