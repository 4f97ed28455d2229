//go:build !unix

package workspace

// openNonblock is nothing where the file system holds no FIFOs (Windows'
// named pipes live outside it).
const openNonblock = 0
