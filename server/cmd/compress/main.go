// Command compress writes FILE.br beside a file, brotli-compressed: make
// wasm uses it for web/app.wasm, a Go encoder rather than the brotli
// command, so that a bare machine serves the smallest encoding too.
//
//	go run ./server/cmd/compress -q 9 web/app.wasm
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/andybalholm/brotli"
)

func main() {
	quality := flag.Int("q", 9, "brotli quality, 0 to 11")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: compress [-q quality] FILE")
		os.Exit(2)
	}
	if err := compress(flag.Arg(0), *quality); err != nil {
		fmt.Fprintln(os.Stderr, "compress:", err)
		os.Exit(1)
	}
}

// compress writes path.br through a temporary file, so that a reader never
// sees half of it. A path.br that already holds path's bytes is kept (and
// made newer than path): quality 11 takes half a minute.
func compress(path string, quality int) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if holds(path+".br", raw) {
		now := time.Now()
		return os.Chtimes(path+".br", now, now)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".br.*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, there is nothing to remove
	w := brotli.NewWriterLevel(tmp, quality)
	if _, err := w.Write(raw); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Close(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path+".br")
}

// holds reports whether the brotli file decodes to exactly raw.
func holds(brPath string, raw []byte) bool {
	f, err := os.Open(brPath)
	if err != nil {
		return false
	}
	defer f.Close()
	got, err := io.ReadAll(io.LimitReader(brotli.NewReader(f), int64(len(raw))+1))
	return err == nil && bytes.Equal(got, raw)
}
