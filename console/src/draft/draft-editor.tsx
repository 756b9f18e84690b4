import { setMerchantName } from '../catalog/edit';
import type { Problem } from '../catalog/problems';
import { CategoriesTable } from './categories-table';
import { CheckFirst } from './check-first';
import { useEditor } from './editor-context';
import { TextField } from './fields';
import { ItemsSection } from './items-section';
import { ModifierGroupsSection } from './modifier-groups';
import { ProblemSummary } from './problem-summary';

/** The editable draft: problems, the items to check first, items by category, categories, modifier groups. */
export const DraftEditor = ({ problems }: { problems: readonly Problem[] }) => {
  const { doc, apply } = useEditor();
  return (
    <div class="draft-editor">
      <ProblemSummary problems={problems} id="problems-heading" />
      <div class="draft-meta">
        <label for="field:/merchant/name" class="label">
          Merchant name in the catalog
        </label>
        <TextField
          pointer="/merchant/name"
          label="Merchant name in the catalog"
          value={doc.merchant.name}
          onValue={(name) => apply((d) => setMerchantName(d, name ?? ''))}
        />
        <span class="muted">
          Currency {doc.currency} · language {doc.language} · format {doc.format_version}
        </span>
      </div>
      <CheckFirst />
      <ItemsSection />
      <CategoriesTable />
      <ModifierGroupsSection />
    </div>
  );
};
