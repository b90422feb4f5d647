package server

import (
	"encoding/json"
	"net/http"
)

// Problem is an RFC 9457 problem detail. Every error the API returns is one,
// decided before any byte of a stream is written.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
	Field  string `json:"field,omitempty"` // the input member at fault, where one is
}

func problem(status int, slug, title, detail string) *Problem {
	return &Problem{Type: "urn:agent-analysis:problem:" + slug, Title: title, Status: status, Detail: detail}
}

func writeProblem(w http.ResponseWriter, p *Problem) {
	body, _ := json.Marshal(p) // a struct of strings and an int cannot fail
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	w.Write(append(body, '\n'))
}

// methodNotAllowed answers any method but the allowed one with 405 and Allow.
func methodNotAllowed(allow string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeProblem(w, problem(http.StatusMethodNotAllowed, "method-not-allowed",
			"Method not allowed", r.Method+" is not supported here; use "+allow+"."))
	})
}
