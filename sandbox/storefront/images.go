package storefront

import (
	_ "embed"

	"github.com/eshop-sandbox/sandbox/sandbox/api"
)

// placeholderSVG is the neutral picture every product shows for now.
//
//go:embed assets/placeholder.svg
var placeholderSVG []byte

// PlaceholderPath is where an e-shop serves placeholderSVG, relative to
// {eshop_url}.
const PlaceholderPath = "/storefront/placeholder.svg"

// cutImagesServed says whether the image cut addresses
// ({eshop_url}/cdn/<cut>/<name>) serve images. They do not yet, so every
// product shows the neutral placeholder; set it to true once they do.
// The pages carry each product's cut address in data-image-url either
// way, and the browser test checks it against the API's image data.
const cutImagesServed = false

// imageSrc is the address a product picture is shown from, given the
// image cut address the API names for it ("" when it has none).
func imageSrc(eshopURL, cutURL string) string {
	if cutImagesServed && cutURL != "" {
		return cutURL
	}
	return eshopURL + PlaceholderPath
}

// placeholderImage serves placeholderSVG.
func placeholderImage(*api.Request) (any, error) {
	return &api.Raw{ContentType: "image/svg+xml", Body: placeholderSVG}, nil
}
