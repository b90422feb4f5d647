package server_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/ui"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/server"
)

// webDir makes a web folder with a fake wasm (and optionally a .br beside
// it, older or newer than the wasm).
func webDir(t *testing.T, wasm string, br string, brAge time.Duration) string {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "app.wasm"), []byte(wasm), 0o644)
	os.WriteFile(filepath.Join(dir, "agent-analysis.css"), []byte("body{}"), 0o644)
	if br != "" {
		path := filepath.Join(dir, "app.wasm.br")
		os.WriteFile(path, []byte(br), 0o644)
		at := time.Now().Add(brAge)
		os.Chtimes(path, at, at)
	}
	return dir
}

func get(h http.Handler, path string, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// wasmURL is the versioned URL the page's loader uses.
func wasmURL(t *testing.T, h http.Handler) string {
	t.Helper()
	m := regexp.MustCompile(`/web/app\.[0-9a-f]{16}\.wasm`).FindString(get(h, "/app.js").Body.String())
	if m == "" {
		t.Fatal("app.js names no versioned wasm")
	}
	return m
}

func TestWasmIsServedCompressedAndCachedForGood(t *testing.T) {
	wasm := strings.Repeat("\x00asm wasm bytes ", 4096)
	h := server.New(server.Config{WebDir: webDir(t, wasm, "", 0)})
	url := wasmURL(t, h)

	rec := get(h, url, "Accept-Encoding", "gzip, deflate")
	hdr := rec.Header()
	if rec.Code != 200 || hdr.Get("Content-Encoding") != "gzip" || hdr.Get("Content-Type") != "application/wasm" {
		t.Fatalf("%d %v", rec.Code, hdr)
	}
	if hdr.Get("Cache-Control") != "public, max-age=31536000, immutable" || hdr.Get("Vary") != "Accept-Encoding" || hdr.Get("X-Wasm-Content-Length") != "65536" {
		t.Errorf("headers %v", hdr)
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); string(got) != wasm {
		t.Error("gzip body does not decode to the wasm")
	}
	if rec.Body.Len() > len(wasm)/10 {
		t.Errorf("compressed to %d of %d bytes", rec.Body.Len(), len(wasm))
	}

	if again := get(h, url, "Accept-Encoding", "gzip", "If-None-Match", hdr.Get("ETag")); again.Code != http.StatusNotModified {
		t.Errorf("revalidation answered %d", again.Code)
	}
	if plain := get(h, url); plain.Header().Get("Content-Encoding") != "" || plain.Body.String() != wasm {
		t.Error("no Accept-Encoding must get the wasm as is")
	}
	if refused := get(h, url, "Accept-Encoding", "gzip;q=0"); refused.Header().Get("Content-Encoding") != "" {
		t.Error("gzip;q=0 got gzip")
	}
	if unversioned := get(h, "/web/app.wasm", "Accept-Encoding", "gzip"); unversioned.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("/web/app.wasm Cache-Control %q", unversioned.Header().Get("Cache-Control"))
	}

	other := server.New(server.Config{WebDir: webDir(t, wasm+"rebuilt", "", 0)})
	if wasmURL(t, other) == url {
		t.Error("a rebuilt wasm kept its URL")
	}
}

func TestBrotliOnlyWhenFresh(t *testing.T) {
	fresh := server.New(server.Config{WebDir: webDir(t, "wasm", "BROTLI", time.Minute)})
	if rec := get(fresh, wasmURL(t, fresh), "Accept-Encoding", "gzip, br"); rec.Header().Get("Content-Encoding") != "br" || rec.Body.String() != "BROTLI" {
		t.Errorf("fresh .br: %v %q", rec.Header(), rec.Body)
	}
	stale := server.New(server.Config{WebDir: webDir(t, "wasm", "BROTLI", -time.Hour)})
	if rec := get(stale, wasmURL(t, stale), "Accept-Encoding", "gzip, br"); rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("stale .br was served: %v", rec.Header())
	}
}

// make run writes app.wasm.br in the background: until it is there, the
// wasm goes out gzipped, and only to a client that takes no brotli is that
// answer cached for good; once it is written, the next request gets it.
func TestBrotliIsTakenOnceWritten(t *testing.T) {
	dir := webDir(t, "wasm", "", 0)
	var log bytes.Buffer
	h := server.New(server.Config{WebDir: dir, Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	url := wasmURL(t, h)
	answer := func(accepts string, header ...string) (encoding, cache, etag string) {
		t.Helper()
		rec := get(h, url, append([]string{"Accept-Encoding", accepts}, header...)...)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d", accepts, rec.Code)
		}
		return rec.Header().Get("Content-Encoding"), rec.Header().Get("Cache-Control"), rec.Header().Get("ETag")
	}
	const forGood = "public, max-age=31536000, immutable"

	encoding, cache, gzipTag := answer("gzip, br")
	if encoding != "gzip" || cache != "no-cache" {
		t.Errorf("before app.wasm.br: %s, %s; want gzip, not cached for good", encoding, cache)
	}
	if encoding, cache, _ := answer("gzip"); encoding != "gzip" || cache != forGood {
		t.Errorf("to a client without brotli: %s, %s", encoding, cache)
	}

	path := filepath.Join(dir, "app.wasm.br")
	os.WriteFile(path, []byte("STALE"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(path, old, old)
	if encoding, _, _ := answer("gzip, br"); encoding != "gzip" {
		t.Errorf("a stale app.wasm.br was served: %s", encoding)
	}

	os.WriteFile(path, []byte("BROTLI"), 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(path, later, later)
	rec := get(h, url, "Accept-Encoding", "gzip, br", "If-None-Match", gzipTag)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "br" || rec.Body.String() != "BROTLI" ||
		rec.Header().Get("Cache-Control") != forGood || rec.Header().Get("ETag") == gzipTag {
		t.Errorf("once app.wasm.br is written, a revalidation of the gzip answer got %d %v %q", rec.Code, rec.Header(), rec.Body)
	}
	if encoding, _, _ := answer("gzip"); encoding != "gzip" {
		t.Errorf("a client without brotli got %s", encoding)
	}

	var said []string
	for _, line := range logLines(t, &log) {
		said = append(said, line["msg"].(string))
	}
	want := []string{
		"no app.wasm.br yet: the wasm goes out gzipped until it is written",
		"app.wasm.br is written: the wasm goes out brotli-compressed",
	}
	if !reflect.DeepEqual(said, want) {
		t.Errorf("the log says %q, want %q", said, want)
	}
}

func TestStaticFiles(t *testing.T) {
	h := server.New(server.Config{WebDir: webDir(t, "wasm", "", 0)})
	if rec := get(h, "/web/agent-analysis.css"); rec.Code != 200 || rec.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("css: %d %v", rec.Code, rec.Header())
	}
	if rec := get(h, "/web/"); rec.Code != 404 || bytes.Contains(rec.Body.Bytes(), []byte("app.wasm")) {
		t.Errorf("the folder is listed: %d", rec.Code)
	}
	if rec := get(h, "/web/../go.mod"); rec.Code == 200 {
		t.Error("escaped the web folder")
	}
}

// The page learns its scenarios from app.js (the wasm carries no
// scripts), and app.js's version follows them with the wasm's.
func TestAppJSCarriesTheScenarios(t *testing.T) {
	h := server.New(server.Config{WebDir: webDir(t, "\x00asm", "", 0)})
	rec := get(h, "/app.js")
	env := regexp.MustCompile(`const goappEnv = (\{.*\});`).FindStringSubmatch(rec.Body.String())
	if env == nil {
		t.Fatal("app.js has no environment")
	}
	var vars map[string]string
	if err := json.Unmarshal([]byte(env[1]), &vars); err != nil {
		t.Fatal(err)
	}
	offered, err := catalogue.Decode(vars[ui.ScenariosEnv])
	if err != nil || !reflect.DeepEqual(offered, fixtures.Catalogue()) {
		t.Fatalf("app.js offers %d scenarios (%v)", len(offered), err)
	}
	if etag := rec.Header().Get("ETag"); !strings.Contains(etag, strings.TrimSuffix(strings.TrimPrefix(wasmURL(t, h), "/web/app."), ".wasm")+"-") {
		t.Errorf("app.js ETag %s does not follow the wasm", etag)
	}
}

// Pages, scripts and styles go out gzipped to a browser that takes gzip,
// as they are to one that does not; the event stream never is.
func TestTextIsGzipped(t *testing.T) {
	dir := webDir(t, "\x00asm", "", 0)
	os.WriteFile(filepath.Join(dir, "agent-analysis.css"), bytes.Repeat([]byte("main { color: red }\n"), 200), 0o644)
	h := server.New(server.Config{WebDir: dir})
	for _, path := range []string{"/agent-analysis", "/app.js", "/wasm_exec.js", "/web/agent-analysis.css"} {
		plain := get(h, path)
		if plain.Code != 200 || plain.Header().Get("Content-Encoding") != "" {
			t.Fatalf("%s without gzip: %d %v", path, plain.Code, plain.Header())
		}
		rec := get(h, path, "Accept-Encoding", "gzip, br")
		if rec.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(rec.Header().Get("Vary"), "Accept-Encoding") {
			t.Fatalf("%s: %v", path, rec.Header())
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(path, err)
		}
		// go-app writes a page's attributes in map order: compare pages by size.
		got, _ := io.ReadAll(zr)
		if len(got) != plain.Body.Len() || path != "/agent-analysis" && !bytes.Equal(got, plain.Body.Bytes()) {
			t.Errorf("%s: the gzip body does not decode to what is sent raw", path)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(`{"threadId":"t","runId":"r","state":{},"messages":[],"tools":[],"context":[],"forwardedProps":{"scenario":"normal"}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "" || !strings.HasPrefix(rec.Body.String(), "data: ") {
		t.Errorf("the stream: %d %v %.40q", rec.Code, rec.Header(), rec.Body)
	}
}
