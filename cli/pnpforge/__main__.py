"""`python -m pnpforge` runs the same CLI as `pnp`."""

from pnpforge.app import main

main()
