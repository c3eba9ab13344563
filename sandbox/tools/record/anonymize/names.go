package anonymize

// The word lists fakes are drawn from: invented, international and
// neutral, so that no fake is anyone in particular.

var firstNames = []string{
	"Alex", "Bea", "Cyril", "Dana", "Emil", "Fiona", "Gabriel", "Hana", "Ivo", "Jana",
	"Karel", "Lena", "Marek", "Nora", "Oskar", "Petra", "Quentin", "Rita", "Samuel", "Tereza",
	"Umberto", "Vera", "Walter", "Xenia", "Yannick", "Zora", "Adam", "Berta", "Daniel", "Eva",
	"Filip", "Greta", "Hugo", "Irena", "Jonas", "Klara", "Lukas", "Marta", "Nikolas", "Olga",
}

var lastNames = []string{
	"Ashford", "Brandt", "Castell", "Dorn", "Eriksen", "Falk", "Grant", "Holm", "Ibarra", "Jensen",
	"Kovar", "Lindqvist", "Moreau", "Nygard", "Ortega", "Pajari", "Quist", "Rossi", "Sander", "Tamm",
	"Ulrich", "Vance", "Weller", "Yildiz", "Zeman", "Abbott", "Bergman", "Conti", "Dvorsky", "Engel",
	"Fischer", "Gallo", "Hartman", "Ilves", "Janek", "Kessler", "Larsen", "Marin", "Novak", "Olsen",
}

var tradeWords = []string{"Trading", "Supply", "Works", "Partners", "Studio", "Goods", "Services", "Group"}

var streetNames = []string{
	"Maple", "Birch", "Cedar", "Willow", "Juniper", "Aspen", "Linden", "Rowan", "Hazel", "Alder",
	"Elm", "Poplar", "Chestnut", "Laurel", "Spruce", "Sorrel", "Meadow", "Orchard", "Brook", "Quarry",
}

var streetKinds = []string{"Street", "Lane", "Road", "Avenue", "Way", "Row"}

var towns = []string{
	"Ashmont", "Brookfield", "Cinderford", "Dunmere", "Eastwick", "Fairholm", "Glenrock", "Harwood",
	"Ivybridge", "Kingsmoor", "Larkhill", "Millbrook", "Northcote", "Oakridge", "Pinewold", "Redcliff",
	"Stonehaven", "Thornbury", "Underhill", "Westvale",
}
