package server_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/server"
)

func apiRequest(method, origin, contentType, body string, header ...string) *http.Request {
	req := httptest.NewRequest(method, "/api/agent-analysis", strings.NewReader(body))
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req
}

func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func preflight(origin string) *http.Request {
	return apiRequest(http.MethodOptions, origin, "", "",
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type")
}

func TestCORS(t *testing.T) {
	const allowed, foreign = "http://127.0.0.1:5173", "http://127.0.0.2:9999"
	h := server.New(server.Config{NoDelay: true, CORSOrigins: []string{allowed}})
	body := runBody("t", "r", "normal")

	rec := serve(h, preflight(allowed))
	if rec.Code != http.StatusNoContent || rec.Header().Get("Access-Control-Allow-Origin") != allowed ||
		!strings.Contains(rec.Header().Get("Access-Control-Allow-Methods"), "POST") ||
		!strings.Contains(strings.ToLower(rec.Header().Get("Access-Control-Allow-Headers")), "content-type") {
		t.Errorf("preflight from the allowed origin: %d %v", rec.Code, rec.Header())
	}
	if rec := serve(h, preflight(foreign)); rec.Header().Get("Access-Control-Allow-Origin") != "" || !namesTheFlag(rec, foreign) ||
		!slices.Contains(rec.Header().Values("Vary"), "Accept") {
		t.Errorf("preflight from a foreign origin: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}

	rec = serve(h, apiRequest(http.MethodPost, allowed, "application/json", body))
	if rec.Code != 200 || rec.Header().Get("Access-Control-Allow-Origin") != allowed || !strings.Contains(rec.Body.String(), "RUN_FINISHED") ||
		!slices.Equal(rec.Header().Values("Vary"), []string{"Accept", "Origin"}) {
		t.Errorf("stream for the allowed origin: %d %v", rec.Code, rec.Header())
	}
	// A page of another origin reads Retry-After, as the 503 asks it to.
	if exposed := rec.Header().Get("Access-Control-Expose-Headers"); exposed != "Retry-After" {
		t.Errorf("Access-Control-Expose-Headers %q", exposed)
	}
	if rec := serve(h, apiRequest(http.MethodPost, foreign, "application/json", body)); rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("a foreign origin may read the stream: %v", rec.Header())
	}
	// Problems carry the headers too, so a browser client can read why.
	rec = serve(h, apiRequest(http.MethodPost, allowed, "text/plain", body))
	if rec.Code != http.StatusUnsupportedMediaType || rec.Header().Get("Access-Control-Allow-Origin") != allowed {
		t.Errorf("problem for the allowed origin: %d %v", rec.Code, rec.Header())
	}

	any := server.New(server.Config{NoDelay: true, CORSOrigins: []string{"*"}})
	if rec := serve(any, preflight(foreign)); rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("* did not allow %s: %v", foreign, rec.Header())
	}

	// The default is same origin only: no CORS headers, and a preflight
	// refused with the flag that would allow it.
	same := server.New(server.Config{NoDelay: true})
	if rec := serve(same, preflight(allowed)); rec.Header().Get("Access-Control-Allow-Origin") != "" || !namesTheFlag(rec, allowed) ||
		!slices.Contains(rec.Header().Values("Vary"), "Accept") {
		t.Errorf("default preflight: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	if rec := serve(same, apiRequest(http.MethodPost, allowed, "application/json", body)); rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("default stream carries CORS headers: %v", rec.Header())
	}
	// A page of no origin of its own (a file, a sandboxed frame) sends
	// null, which -cors-origins does not take as an origin: only * lets
	// it in, and the refusal says so, not to name null.
	if rec := serve(same, preflight("null")); rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "-cors-origins *") ||
		strings.Contains(rec.Body.String(), "-cors-origins null") {
		t.Errorf("a preflight of origin null: %d %s", rec.Code, rec.Body)
	}
	if rec := serve(any, preflight("null")); rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("* did not allow origin null: %v", rec.Header())
	}
}

func TestWithoutWasmThePagesSayHowToBuildIt(t *testing.T) {
	h := server.New(server.Config{WebDir: t.TempDir(), NoDelay: true})
	for _, path := range []string{"/agent-analysis", "/agent-analysis/retained", "/charts"} {
		rec := get(h, path)
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "make wasm") {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
	if rec := get(h, "/healthz"); rec.Code != 200 {
		t.Errorf("healthz %d", rec.Code)
	}
	if rec := serve(h, apiRequest(http.MethodPost, "", "application/json", runBody("t", "r", "normal"))); rec.Code != 200 {
		t.Errorf("API %d", rec.Code)
	}
}

// namesTheFlag: a refused preflight is a 403 problem saying which flag
// lets the origin in.
func namesTheFlag(rec *httptest.ResponseRecorder, origin string) bool {
	return rec.Code == http.StatusForbidden && rec.Header().Get("Content-Type") == "application/problem+json" &&
		strings.Contains(rec.Body.String(), "-cors-origins "+origin)
}
