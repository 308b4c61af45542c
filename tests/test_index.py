"""Index identity: what built an index is recorded; a change rebuilds; unchanged texts are not re-embedded."""

from __future__ import annotations

from pincite.index.build import ensure_index
from pincite.index.embed import embedder_from_settings
from pincite.index.store import store_from_settings as open_store
from pincite.index.units import provision_units, settings_hash
from pincite.provisions import Provision


class CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed."""

    def __init__(self, inner):
        self.inner = inner
        self.identity = inner.identity
        self.batch_size = inner.batch_size
        self.texts = 0

    def embed(self, texts):
        self.texts += len(texts)
        return self.inner.embed(texts)


def test_current_index_is_reused_without_embedding(indexed):
    settings = indexed("gdpr")
    embedder = CountingEmbedder(embedder_from_settings(settings))
    before = open_store(settings).identity("gdpr/en")
    assert ensure_index("gdpr", "en", settings, embedder=embedder) == before and embedder.texts == 0


def test_changed_settings_rebuild_and_embed_only_new_texts(indexed):
    settings = indexed("gdpr").model_copy(update={"index_split_chars": 600})
    embedder = CountingEmbedder(embedder_from_settings(settings))
    store = open_store(settings)
    old = store.identity("gdpr/en")
    new = ensure_index("gdpr", "en", settings, store, embedder)
    units = len(store.units("gdpr/en"))
    # Restore the shared index for other tests (vectors are cached: nothing is embedded again).
    ensure_index("gdpr", "en", indexed("gdpr"), store)
    assert new.settings_hash != old.settings_hash and 0 < embedder.texts < units


def test_settings_hash_follows_what_shapes_units(indexed):
    settings = indexed("gdpr")
    assert settings_hash(settings) != settings_hash(settings.model_copy(update={"embed_max_length": 128}))


def test_long_paragraph_gets_point_units_with_lead_in(indexed):
    p = Provision(id="x/en/art-5.par-1", label="Article 5(1)", label_local="Article 5(1)", kind="paragraph",
                  instrument="x", lang="en", title="Prohibited practices", path=[],
                  text="1. The following practices shall be prohibited:\n(a) " + "a" * 600 + ";\n(b) " + "b" * 600 + ".",
                  url="u", source_sha256="s", version="v")
    units = provision_units(p, indexed("gdpr"))
    assert [u.text[:60] for u in units[1:]] == [
        "Prohibited practices: 1. The following practices shall be pr"] * 2
    assert units[1].text.endswith("a;") and units[2].text.endswith("b.") and units[1].tokens == []
