// Command kandev-compress writes the Brotli and gzip siblings that package
// relay/assets serves in a file's place (PATH.br, PATH.gz), for each file
// given and for the web files (.wasm .js .mjs .css .html .json .svg .ttf
// .map) under each folder given. The build runs it over lsp.wasm,
// wasm_exec.js and the demo's bundle.
//
//	kandev-compress bin/lsp.wasm bin/wasm_exec.js bin/esm
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/kandev/lsp/relay/assets"
)

// web are the extensions compressed under a folder: text and WebAssembly,
// never images or fonts that are compressed already (.woff2, .png).
var web = map[string]bool{
	".wasm": true, ".js": true, ".mjs": true, ".css": true, ".html": true,
	".json": true, ".svg": true, ".ttf": true, ".map": true,
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: kandev-compress FILE|DIR...")
		os.Exit(2)
	}
	var files []string
	for _, arg := range os.Args[1:] {
		fi, err := os.Stat(arg)
		if err != nil {
			fail(err)
		}
		if !fi.IsDir() {
			files = append(files, arg)
			continue
		}
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() && web[filepath.Ext(p)] {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			fail(err)
		}
	}
	// Brotli's best quality costs seconds per megabyte: one file per core.
	var wg sync.WaitGroup
	errs := make([]error, len(files))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, f := range files {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = assets.Compress(f)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "kandev-compress:", err)
	os.Exit(1)
}
