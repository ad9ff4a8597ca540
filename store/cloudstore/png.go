package cloudstore

import (
	"bytes"
	"image/png"
)

// isPNG reports whether data is a decodable PNG image: the magic bytes and a valid header, so a
// text file renamed .png is refused. Only the header is decoded (DecodeConfig), not the pixels.
func isPNG(data []byte) bool {
	if !bytes.HasPrefix(data, pngMagic) {
		return false
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	return err == nil && cfg.Width > 0 && cfg.Height > 0 && cfg.Width <= 4096 && cfg.Height <= 4096
}
