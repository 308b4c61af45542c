from pincite.surfaces.cli import main

main()
