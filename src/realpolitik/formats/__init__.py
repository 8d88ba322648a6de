"""The file formats: thin adapters between the library's values and JSON.

* :mod:`~realpolitik.formats.situation`: the JSON contract of ``realpolitik adjudicate``;
* :mod:`~realpolitik.formats.savegame`: the native saved game (a whole game, lossless);
* :mod:`~realpolitik.formats.mila`: the saved games of the PyPI ``diplomacy`` package;
* :mod:`~realpolitik.formats.replay`: recorded games (a start and each phase's orders);
* :mod:`~realpolitik.formats.schema`: the small JSON Schema checker the saved game uses;
* :mod:`~realpolitik.formats.jsontext`: JSON text as the commands read it.
"""
