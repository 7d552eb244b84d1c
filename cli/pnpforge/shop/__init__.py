"""Print shops, cutting machines and digital tables: card files in the form each one asks for.

profiles (shops and their products, as data with their sources), fit (which
product a card type prints as, and how), export (PNG per card for MakePlayingCards
and The Game Crafter, a CMYK PDF per deck for DriveThruCards), cmyk (the canvas
that converts drawing to CMYK).  Everything is drawn by the same FaceRenderer as
the print sheets; heavy imports happen inside the functions that need them.
"""
