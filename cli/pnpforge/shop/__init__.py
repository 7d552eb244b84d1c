"""Print shops, cutting machines and digital tables: card files in the form each one asks for.

Above render: everything here is drawn by the same FaceRenderer as the print sheets,
and render never imports this package.

profiles (shops and their products, as data with their sources), fit (which
product a card type prints as, and how), place (a side drawn onto a product's
page), export (PNG per card for MakePlayingCards and The Game Crafter, a CMYK
PDF per deck for DriveThruCards, after the preflight), cmyk (the canvas that
converts drawing to CMYK), pdfx (the DriveThruCards deck PDF), preflight (what a
shop would reject, found before the upload), cut and cut_geometry (print-then-cut
sheets for Silhouette and Cricut, and the machines' marks), tts and tts_object
(Tabletop Simulator deck sheets and the saved object), kit_parts (the shop and
cut parts of `pnp build`).  No module here loads at `pnp --help`: the API and the
build import them when called.
"""
