package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// wasmBuild is the built app.wasm, read once at start: its version (a hash
// of the bytes) and its encodings. Its brotli encoding may be written after
// the server started (make run compresses in the background): until a
// fresh app.wasm.br is there, the wasm goes out gzipped.
type wasmBuild struct {
	name     string // "app", "inspector": the file's name without .wasm
	version  string
	identity []byte
	gzip     []byte

	brPath  string    // where the brotli encoding is written
	built   time.Time // app.wasm's modification time: an older app.wasm.br is stale
	log     *slog.Logger
	mu      sync.Mutex
	brotli  []byte // once a fresh app.wasm.br was found
	waiting bool   // there was none at start: its arrival is logged
}

// loadWasm reads web/app.wasm, gzips it, and takes app.wasm.br if it is at
// least as new. Without a wasm (unit tests) it returns a build of version
// "no-wasm" that serves nothing.
func loadWasm(webDir string, log *slog.Logger) *wasmBuild {
	return loadWasmFile(webDir, "app.wasm", log)
}

// loadWasmFile is loadWasm for a wasm of another name.
func loadWasmFile(webDir, name string, log *slog.Logger) *wasmBuild {
	path := filepath.Join(webDir, name)
	raw, err := os.ReadFile(path)
	if err != nil {
		return &wasmBuild{name: strings.TrimSuffix(name, ".wasm"), version: "no-wasm"}
	}
	b := &wasmBuild{name: strings.TrimSuffix(name, ".wasm"), version: shortHash(string(raw)), identity: raw, brPath: path + ".br", built: modTime(path), log: log}

	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.DefaultCompression) // 0.4 s for 8 MB; level 9 saves 0.6 %
	w.Write(raw)
	w.Close()
	b.gzip = gz.Bytes()

	if b.brotliEncoding() == nil {
		b.waiting = true
		if modTime(b.brPath).IsZero() {
			log.Info("no app.wasm.br yet: the wasm goes out gzipped until it is written", "dir", webDir)
		} else {
			log.Warn("app.wasm.br is older than app.wasm: the wasm goes out gzipped until it is written again (make wasm, or make run in the background)", "dir", webDir)
		}
	}
	return b
}

// brotliEncoding is the brotli encoding, nil until a fresh app.wasm.br is
// there. Once found, it is kept: the file is written whole (through a
// temporary file and a rename) and only once per build.
func (b *wasmBuild) brotliEncoding() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.brotli != nil || b.brPath == "" {
		return b.brotli
	}
	if written := modTime(b.brPath); written.IsZero() || written.Before(b.built) {
		return nil // not written yet, or for an older build
	}
	br, err := os.ReadFile(b.brPath)
	if err != nil {
		return nil
	}
	b.brotli = br
	if b.waiting {
		b.log.Info("app.wasm.br is written: the wasm goes out brotli-compressed", "bytes", len(br))
	}
	return b.brotli
}

func modTime(path string) time.Time {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}

// url is where pages load this build from: a new build is a new URL, so
// the bytes can be cached for good.
func (b *wasmBuild) url() string { return "/web/" + b.name + "." + b.version + ".wasm" }

// ServeHTTP answers /web/app.wasm and /web/app.{version}.wasm with the
// best encoding the client accepts.
func (b *wasmBuild) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if b.identity == nil {
		http.NotFound(w, r)
		return
	}
	body, encoding := b.identity, ""
	accepts := r.Header.Get("Accept-Encoding")
	takesBrotli := acceptsEncoding(accepts, "br")
	var brotli []byte
	if takesBrotli {
		brotli = b.brotliEncoding()
	}
	switch {
	case brotli != nil:
		body, encoding = brotli, "br"
	case acceptsEncoding(accepts, "gzip"):
		body, encoding = b.gzip, "gzip"
	}
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Vary", "Accept-Encoding")
	// go-app's loader shows progress against the decoded size.
	h.Set("X-Wasm-Content-Length", strconv.Itoa(len(b.identity)))
	// One version, three representations: each encoding has its own tag.
	h.Set("ETag", `"`+b.version+"-"+encoding+`"`)
	// The versioned URL is cached for good, in the encoding this client
	// will always get: not the gzip sent while brotli is being written,
	// which the next visit asks for again, and then gets brotli.
	if final := brotli != nil || !takesBrotli; r.URL.Path == b.url() && final {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptsEncoding reads an Accept-Encoding header: the coding is listed
// without q=0.
func acceptsEncoding(header, coding string) bool {
	for item := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(item), ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		q := strings.TrimSpace(params)
		return !strings.HasPrefix(q, "q=0") || strings.Trim(q[2:], "0.") != ""
	}
	return false
}

// handleStatic serves the other files of web/ from disk, revalidated on
// every use. Folders are not listed.
func handleStatic(webDir string) http.Handler {
	files := http.StripPrefix("/web/", http.FileServer(http.Dir(webDir)))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// shortHash names a content's version: 16 hex digits of its SHA-256.
func shortHash(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:8])
}
