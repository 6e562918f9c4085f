// Package web embeds the production build of the React app (web/dist) into the Go binary.
//
// web/dist is produced by `npm run build` in web/ and is not committed: build the web app before
// compiling or testing Go code that imports this package (`make` does it in that order). A
// missing web/dist is a compile error on purpose, so that a binary never ships without its app.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the web build with dist/ stripped: index.html at its root, hashed files under assets/.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("web: " + err.Error()) // cannot happen: dist is embedded above
	}
	return sub
}
