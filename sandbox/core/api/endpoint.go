package api

import (
	"mime"
	"net/http"
	"strings"

	"github.com/eshop-sandbox/sandbox/sandbox"
	"github.com/eshop-sandbox/sandbox/sandbox/core/auth"
)

// endpoint is the last step of the pipeline: content type, token, rights
// and the e-shop's modules, the declared query parameters, then the
// route's handler, then the envelope.
func (s *Server) endpoint(w http.ResponseWriter, r *http.Request) {
	c := CallOf(r)
	rt := c.Route()
	if rt == nil {
		s.notFound(w, r)
		return
	}
	req := &Request{Request: r, Route: rt, Vars: c.Vars, server: s, call: c}
	if !rt.NoContentType {
		if err := s.checkContentType(r); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	if !rt.Public {
		id := c.Identity()
		if id.Err != nil {
			s.writeError(w, r, id.Err)
			return
		}
		p := id.Principal
		if err := p.Allows(auth.Endpoint{Operation: rt.Operation, Method: rt.Method, Group: rt.Group}); err != nil && !rt.AnyToken {
			s.writeError(w, r, err)
			return
		}
		req.Principal, req.Eshop = p, p.EshopID()
		c.Eshop, c.TokenKind = req.Eshop, p.Kind()
		if rt.Module != "" && s.modules != nil {
			if err := s.modules.RequireModule(req.Eshop, rt.Module, rt.Operation); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
	}
	if len(rt.Query) > 0 {
		if err := CheckQuery(rt.Query, req.QueryValues()); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	out, err := rt.Handler(req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeResult(w, r, out)
}

func (s *Server) writeResult(w http.ResponseWriter, r *http.Request, out any) {
	switch v := out.(type) {
	case *Raw:
		status := v.Status
		if status == 0 {
			status = http.StatusOK
		}
		if v.ContentType != "" {
			w.Header().Set("Content-Type", v.ContentType)
		}
		for k, vs := range v.Header {
			w.Header()[k] = vs
		}
		w.WriteHeader(status)
		_, _ = w.Write(v.Body)
	case *Result:
		status := v.Status
		if status == 0 {
			status = http.StatusOK
		}
		s.writeJSON(w, r, status, v.Data, v.Errors)
	default:
		s.writeJSON(w, r, http.StatusOK, v, nil)
	}
}

// checkContentType enforces the spec's Versioning rule 2: every request
// carries Content-Type, application/json or the vendor media type.
func (s *Server) checkContentType(r *http.Request) error {
	ct := headerValue(r.Header, "Content-Type")
	if ct == "" {
		return sandbox.Errorf(sandbox.KindUnprocessable, sandbox.CodeInvalidContentType, "Content-Type",
			"The Content-Type header is required on every request: send application/json or %s.", s.headers.VendorMediaType)
	}
	if ct == "application/json" {
		return nil // the usual header, as parsing it would find: no parameter map to build
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err == nil {
		mt = strings.ToLower(mt)
		if mt == "application/json" || mt == s.headers.VendorMediaType || mt == s.headers.VendorResponse {
			return nil
		}
	}
	return sandbox.Errorf(sandbox.KindUnprocessable, sandbox.CodeInvalidContentType, "Content-Type",
		"Content-Type %q is not supported: send application/json or %s.", ct, s.headers.VendorMediaType)
}

// headerValue reads a header by its canonical name without canonicalising
// it again (http.Header.Get does, on every call).
func headerValue(h http.Header, canonical string) string {
	if v := h[canonical]; len(v) > 0 {
		return v[0]
	}
	return ""
}
