"""``python -m referee`` behaves exactly like the ``referee`` console script."""

from referee.cli import main

raise SystemExit(main())
