"""Adapters that present any rulelang spec to other frameworks: OpenSpiel (``openspiel``) and PettingZoo
(``pettingzoo``). Both stand on ``core``, which uses the public API only and needs no extra package; the two
adapters need the ``openspiel`` extra (``pip install rulelang[openspiel]``).
"""
