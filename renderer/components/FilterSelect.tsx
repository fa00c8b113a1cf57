interface Props<T extends string> {
  label: string;
  /** The chosen value; '' for no filter. */
  value: T | '';
  /** The words of the no-filter option: "all agents". */
  all: string;
  choices: readonly T[];
  onChange: (value: T | '') => void;
}

/** A labelled drop-down that narrows a list to one value, or to none with its "all" option. */
export function FilterSelect<T extends string>({ label, value, all, choices, onChange }: Props<T>) {
  return (
    <label className="inline-label">
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        <option value="">{all}</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    </label>
  );
}
