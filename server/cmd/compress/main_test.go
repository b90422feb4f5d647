package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
)

// file writes a compressible file of a few chunks in a folder of its own.
func file(t *testing.T) (path string, raw []byte) {
	t.Helper()
	raw = bytes.Repeat([]byte("\x00asm some wasm bytes, "), 3*chunk/20)
	path = filepath.Join(t.TempDir(), "app.wasm")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, raw
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// compress writes FILE.br, which decodes to FILE, and nothing else; run
// again on the same bytes, it keeps it and makes it newer.
func TestCompress(t *testing.T) {
	path, raw := file(t)
	size, err := compress(context.Background(), path, 5)
	if err != nil {
		t.Fatal(err)
	}
	br, err := os.ReadFile(path + ".br")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br))); err != nil || !bytes.Equal(got, raw) {
		t.Fatalf("app.wasm.br does not decode to app.wasm (%v)", err)
	}
	if size != int64(len(br)) || size >= int64(len(raw))/10 {
		t.Errorf("reported %d bytes, wrote %d of %d", size, len(br), len(raw))
	}
	if got := names(t, filepath.Dir(path)); !slices.Equal(got, []string{"app.wasm", "app.wasm.br"}) {
		t.Errorf("the folder holds %v", got)
	}

	old := time.Now().Add(-time.Hour)
	os.Chtimes(path+".br", old, old)
	if size, err := compress(context.Background(), path, 5); err != nil || size != -1 {
		t.Fatalf("again: %d, %v; want the file kept", size, err)
	}
	if fi, _ := os.Stat(path + ".br"); !fi.ModTime().After(old) {
		t.Error("the file kept was not made newer")
	}
}

// Interrupted, compress leaves the folder as it was: no FILE.br, no
// temporary file.
func TestCompressInterrupted(t *testing.T) {
	path, _ := file(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := compress(ctx, path, 5); err == nil {
		t.Fatal("an interrupted compress succeeded")
	}
	if got := names(t, filepath.Dir(path)); !slices.Equal(got, []string{"app.wasm"}) {
		t.Errorf("the folder holds %v", got)
	}
}
