package storefront

import (
	_ "embed"

	"github.com/eshop-sandbox/sandbox/sandbox/core/api"
)

// placeholderSVG is the neutral picture of a product without images.
//
//go:embed assets/placeholder.svg
var placeholderSVG []byte

// PlaceholderPath is where an e-shop serves placeholderSVG, relative to
// {eshop_url}.
const PlaceholderPath = "/storefront/placeholder.svg"

// cutImagesServed says whether the image cut addresses
// ({eshop_url}/cdn/<cut>/<name>) serve images; sandbox/shop/images serves
// them. Set it to false to show the neutral placeholder on every product
// instead. A product without images shows the placeholder either way.
const cutImagesServed = true

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
